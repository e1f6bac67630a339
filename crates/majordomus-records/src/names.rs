//! A map from names to texts, kept as a list sorted by name: what the
//! start snapshot records per branch, per worktree, per remote-tracking ref
//! (each a name and a commit id or a path).
//!
//! These are written once, at the start, and read at every `check`, whole,
//! in order: each local branch is looked up in the start's branches as the
//! branches are walked, sorted by name. At ten thousand branches, building
//! a search tree while parsing the task record (an allocation and a dozen
//! comparisons of names sharing a long prefix per entry) was a tenth of a
//! check, and then two strings allocated per entry were a fifth: every name
//! and every text is now kept in one buffer, in the order read, and the list
//! holds where each lies. The JSON text is the one a `BTreeMap` writes (an
//! object, keys in order), and a record whose keys are out of order or
//! repeated reads as a `BTreeMap` reads it (sorted; the last value of a
//! repeated key wins), so the two cannot answer differently.
//!
//! [`Names::in_order`] looks names up in one pass when they come sorted,
//! each costing a comparison or two; a name out of order is looked up by
//! binary search, so the answer never depends on the order.

use std::cmp::Ordering;
use std::fmt;

use serde::de::{DeserializeSeed, Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Texts by name, sorted by name, each name once.
#[derive(Clone, Default)]
pub struct Names {
    /// Every name and text, each name followed by its text.
    buffer: String,
    /// Where each entry lies in `buffer`, sorted by name.
    entries: Vec<Entry>,
}

/// An entry's name is the `name` bytes of `buffer` from `at`, its text the
/// `text` bytes from `at + name + gap` (`gap`: what lies between them in
/// the form it was read from).
#[derive(Debug, Clone, Copy)]
struct Entry {
    at: usize,
    name: u32,
    gap: u32,
    text: u32,
}

impl Names {
    fn name(&self, e: Entry) -> &str {
        &self.buffer[e.at..e.at + e.name as usize]
    }

    fn text(&self, e: Entry) -> &str {
        let from = e.at + (e.name + e.gap) as usize;
        &self.buffer[from..from + e.text as usize]
    }

    /// An entry for `name` and `text` at the buffer's end.
    fn push(&mut self, name: &str, text: &str) {
        let at = self.buffer.len();
        self.buffer.push_str(name);
        self.buffer.push_str(text);
        // A name or text of 4 GiB cannot reach here: a record is read whole
        // and bounded far below that (`json::Record::MAX_BYTES`).
        let len = |s: &str| u32::try_from(s.len()).expect("a name or text under 4 GiB");
        self.entries.push(Entry { at, name: len(name), gap: 0, text: len(text) });
    }

    /// The entries sorted by name, of a name given twice the last.
    fn sort(mut self) -> Self {
        if self.entries.windows(2).all(|w| self.name(w[0]) < self.name(w[1])) {
            return self;
        }
        let mut entries = std::mem::take(&mut self.entries);
        // Stable: of equal names, the one given last stays last.
        entries.sort_by(|a, b| self.name(*a).cmp(self.name(*b)));
        let mut out: Vec<Entry> = Vec::with_capacity(entries.len());
        for e in entries {
            match out.last_mut() {
                Some(last) if self.name(*last) == self.name(e) => *last = e,
                _ => out.push(e),
            }
        }
        self.entries = out;
        self
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.entries.binary_search_by(|e| self.name(*e).cmp(name)).ok()
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.position(name).map(|i| self.text(self.entries[i]))
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The names and their texts, sorted by name.
    pub fn iter(&self) -> Iter<'_> {
        Iter { names: self, entries: self.entries.iter() }
    }

    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator {
        self.iter().map(|(name, _)| name)
    }

    pub fn values(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator {
        self.iter().map(|(_, text)| text)
    }

    /// A cursor answering [`InOrder::get`] as [`Names::get`] answers.
    pub fn in_order(&self) -> InOrder<'_> {
        InOrder { names: self, next: 0 }
    }
}

impl fmt::Debug for Names {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Equal when they hold the same names and texts, wherever each lies.
impl PartialEq for Names {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Names {}

/// The entries of a [`Names`], sorted by name.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    names: &'a Names,
    entries: std::slice::Iter<'a, Entry>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let e = *self.entries.next()?;
        Some((self.names.name(e), self.names.text(e)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let e = *self.entries.next_back()?;
        Some((self.names.name(e), self.names.text(e)))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Names {
    type Item = (&'a str, &'a str);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<K: AsRef<str>, T: AsRef<str>> FromIterator<(K, T)> for Names {
    fn from_iter<I: IntoIterator<Item = (K, T)>>(iter: I) -> Self {
        let mut names = Names::default();
        for (name, text) in iter {
            names.push(name.as_ref(), text.as_ref());
        }
        names.sort()
    }
}

impl From<std::collections::BTreeMap<String, String>> for Names {
    fn from(map: std::collections::BTreeMap<String, String>) -> Self {
        map.iter().collect()
    }
}

impl<const N: usize> From<[(String, String); N]> for Names {
    fn from(entries: [(String, String); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl std::ops::Index<&str> for Names {
    type Output = str;

    fn index(&self, name: &str) -> &str {
        self.get(name).unwrap_or_else(|| panic!("no entry named {name:?}"))
    }
}

/// Names looked up in one pass over a [`Names`] when they come sorted.
#[derive(Debug)]
pub struct InOrder<'a> {
    names: &'a Names,
    /// Where the next name in order is looked for: every entry before it
    /// is less than a name already asked for.
    next: usize,
}

impl<'a> InOrder<'a> {
    /// What the map holds for `name`, as [`Names::get`] answers.
    pub fn get(&mut self, name: &str) -> Option<&'a str> {
        let names = self.names;
        let entries = &names.entries;
        if self.next > 0 && name <= names.name(entries[self.next - 1]) {
            // Out of order (or asked again): searched for.
            return entries[..self.next]
                .binary_search_by(|e| names.name(*e).cmp(name))
                .ok()
                .map(|i| names.text(entries[i]));
        }
        while let Some(e) = entries.get(self.next) {
            match names.name(*e).cmp(name) {
                Ordering::Less => self.next += 1,
                Ordering::Equal => return Some(names.text(*e)),
                Ordering::Greater => return None,
            }
        }
        None
    }
}

impl Serialize for Names {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// A string read straight onto the end of a buffer: no string of its own
/// is allocated per name or text. Answers the length appended.
struct Append<'a>(&'a mut String);

impl<'de> DeserializeSeed<'de> for Append<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Append<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<usize, E> {
        self.0.push_str(v);
        Ok(v.len())
    }
}

impl<'de> Deserialize<'de> for Names {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;

        impl<'de> Visitor<'de> for Entries {
            type Value = Names;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of strings")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Names, A::Error> {
                let mut names = Names::default();
                names.entries.reserve(map.size_hint().unwrap_or(0).min(4096));
                let len = |n: usize| u32::try_from(n).map_err(|_| A::Error::custom("a string of 4 GiB or more"));
                loop {
                    let at = names.buffer.len();
                    let Some(name) = map.next_key_seed(Append(&mut names.buffer))? else { break };
                    let text = map.next_value_seed(Append(&mut names.buffer))?;
                    names.entries.push(Entry { at, name: len(name)?, gap: 0, text: len(text)? });
                }
                Ok(names.sort())
            }
        }

        deserializer.deserialize_map(Entries)
    }
}

/// A map of ref names to commit ids as one string, `NAME:ID` per entry,
/// entries apart by a space: how the start snapshot keeps its local
/// branches and remote-tracking refs (git forbids both characters in a ref
/// name).
///
/// As an object (what [`Names`] writes), reading ten thousand branches out
/// of the task record cost 7 M instructions, most of them serde's and the
/// JSON reader's own work per string, and the document's copy of the record
/// as much again; one string that needs no escapes is read in one pass. A
/// record written as an object (before this form, or by a hand) reads as
/// before: either form reads into the same [`Names`]. A name or id that an
/// entry could not hold (empty, a name with a space or a colon, an id with
/// a space: no branch git accepts) has the whole map written as an object.
pub mod lines {
    use super::*;

    fn fits(name: &str, id: &str) -> bool {
        !name.is_empty() && !id.is_empty() && !name.contains([' ', ':']) && !id.contains(' ')
    }

    /// For `#[serde(with = "names::lines")]` on an `Option<Names>`.
    pub fn serialize<S: Serializer>(names: &Option<Names>, serializer: S) -> Result<S::Ok, S::Error> {
        let Some(names) = names else { return serializer.serialize_none() };
        if !names.iter().all(|(name, id)| fits(name, id)) {
            return names.serialize(serializer);
        }
        let mut text = String::with_capacity(names.buffer.len() + 2 * names.len());
        for (name, id) in names {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(name);
            text.push(':');
            text.push_str(id);
        }
        serializer.serialize_str(&text)
    }

    /// For `#[serde(with = "names::lines")]` on an `Option<Names>`: an object or
    /// a string of entries.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Names>, D::Error> {
        Ok(Option::<Either>::deserialize(deserializer)?.map(|e| e.0))
    }

    struct Either(Names);

    impl<'de> Deserialize<'de> for Either {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_any(EitherVisitor)
        }
    }

    struct EitherVisitor;

    impl<'de> Visitor<'de> for EitherVisitor {
        type Value = Either;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object of strings, or entries NAME:ID apart by spaces")
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Either, A::Error> {
            Names::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Either)
        }

        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Either, E> {
            read(text).map(Either).map_err(E::custom)
        }
    }

    /// `NAME:ID` entries apart by single spaces: the text is the buffer,
    /// and each entry is found by two searches.
    fn read(text: &str) -> Result<Names, String> {
        let mut names = Names { buffer: text.to_string(), entries: Vec::new() };
        if text.is_empty() {
            return Ok(names);
        }
        names.entries.reserve(text.len() / 48);
        let bytes = text.as_bytes();
        let len = |n: usize| u32::try_from(n).map_err(|_| "an entry of 4 GiB or more".to_string());
        let mut at = 0;
        for n in 1.. {
            let rest = &bytes[at..];
            // The name ends at the first colon, and holds no space.
            let colon = match memchr::memchr2(b':', b' ', rest) {
                Some(i) if i > 0 && rest[i] == b':' => i,
                _ => return Err(format!("entry {n} of the branches is not NAME:ID")),
            };
            let end = memchr::memchr(b' ', &rest[colon + 1..]).map_or(rest.len(), |i| colon + 1 + i);
            if end == colon + 1 {
                return Err(format!("entry {n} of the branches has no id"));
            }
            names.entries.push(Entry { at, name: len(colon)?, gap: 1, text: len(end - colon - 1)? });
            if end == rest.len() {
                break;
            }
            at += end + 1;
        }
        Ok(names.sort())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    const NAMES: [&str; 7] = ["a", "a-b", "a/x", "b", "topic/b0001", "topic/b0002", "z"];

    fn both() -> (Names, BTreeMap<String, String>) {
        let pairs = || NAMES.iter().enumerate().map(|(i, k)| (k.to_string(), format!("t{i}")));
        (pairs().collect(), pairs().collect())
    }

    #[test]
    fn every_lookup_answers_as_a_btree_map_does_in_any_order() {
        let (names, map) = both();
        let asked =
            ["", "a", "a-b", "a.", "a/x", "a/y", "b", "c", "topic/b0001", "topic/b0002", "topic/b0003", "z", "zz"];
        let mut sorted = names.in_order();
        for name in asked {
            let want = map.get(name).map(String::as_str);
            assert_eq!(names.get(name), want, "{name:?}");
            assert_eq!(names.contains_key(name), want.is_some(), "{name:?}");
            assert_eq!(sorted.get(name), want, "{name:?} in order");
            assert_eq!(sorted.get(name), want, "{name:?} asked again");
        }
        let mut shuffled = names.in_order();
        for name in ["topic/b0002", "a", "zz", "b", "a/x", "z", "", "topic/b0001"] {
            assert_eq!(shuffled.get(name), map.get(name).map(String::as_str), "{name:?} out of order");
        }
        let pairs = |m: &BTreeMap<String, String>| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>();
        let listed: Vec<(String, String)> = names.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert_eq!(listed, pairs(&map));
        assert!(names.iter().rev().map(|(k, _)| k).eq(map.keys().rev().map(String::as_str)));
        assert_eq!((names.len(), names.keys().len(), names.values().len()), (map.len(), map.len(), map.len()));
    }

    #[test]
    fn the_json_text_is_the_one_a_btree_map_writes_and_reads() {
        let (names, map) = both();
        assert_eq!(serde_json::to_string(&names).expect("json"), serde_json::to_string(&map).expect("json"));
        // Out of order, repeated and escaped: read as a BTreeMap reads it.
        let text = r#"{"z":"1","a":"2","m\u00e9":"3","a":"4","b":"5\n"}"#;
        let read: Names = serde_json::from_str(text).expect("json");
        let as_map: BTreeMap<String, String> = serde_json::from_str(text).expect("json");
        assert_eq!(read, Names::from(as_map.clone()));
        assert_eq!(read.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<BTreeMap<_, _>>(), as_map);
        for bad in ["[1]", r#"{"a":1}"#, r#"{"a":null}"#, r#"{"a":"1""#] {
            assert!(serde_json::from_str::<Names>(bad).is_err(), "{bad}: an object of strings, or nothing");
        }
    }

    #[test]
    fn equal_maps_are_equal_wherever_their_entries_lie() {
        let sorted: Names = [("a", "1"), ("b", "2")].into_iter().collect();
        let read: Names = serde_json::from_str(r#"{"b":"9","b":"2","a":"1"}"#).expect("json");
        assert_eq!(sorted, read);
        assert_ne!(sorted, [("a", "1"), ("b", "3")].into_iter().collect::<Names>());
        assert_eq!(&read["b"], "2");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Held {
        #[serde(default, with = "lines")]
        branches: Option<Names>,
    }

    #[test]
    fn branches_are_written_as_entries_and_read_in_either_form() {
        let names: Names = [("topic/b", "2222"), ("main", "1111"), ("a\"q", "3333")].into_iter().collect();
        let held = Held { branches: Some(names.clone()) };
        let text = serde_json::to_string(&held).expect("json");
        assert_eq!(text, r#"{"branches":"a\"q:3333 main:1111 topic/b:2222"}"#);
        assert_eq!(serde_json::from_str::<Held>(&text).expect("entries"), held);
        // The object form, as records written before, reads the same.
        let object = r#"{"branches":{"topic/b":"2222","main":"1111","a\"q":"3333"}}"#;
        assert_eq!(serde_json::from_str::<Held>(object).expect("object"), held);
        // Out of order and repeated: the last wins, as in an object.
        let entries = r#"{"branches":"main:9 topic/b:2222 main:1111 a\"q:3333"}"#;
        assert_eq!(serde_json::from_str::<Held>(entries).expect("unsorted"), held);
        let one = Some([("x", "1:2")].into_iter().collect::<Names>());
        let empty = Some(Names::default());
        for (text, branches) in [
            (r#"{}"#, None),
            (r#"{"branches":null}"#, None),
            (r#"{"branches":""}"#, empty),
            (r#"{"branches":"x:1:2"}"#, one),
        ] {
            assert_eq!(serde_json::from_str::<Held>(text).expect(text).branches, branches, "{text}");
        }
        // Nothing an entry cannot hold is written as one.
        for odd in [
            [("a b", "1"), ("c", "2")],
            [("a:b", "1"), ("c", "2")],
            [("a", "1 2"), ("c", "2")],
            [("", "1"), ("c", "2")],
        ] {
            let odd = Held { branches: Some(odd.into_iter().collect()) };
            let text = serde_json::to_string(&odd).expect("json");
            assert!(text.starts_with(r#"{"branches":{"#), "{text}");
            assert_eq!(serde_json::from_str::<Held>(&text).expect("object"), odd);
        }
        for bad in ["main", "main:", ":1", " main:1", "main:1 ", "main:1  c:2", "main:1\nc:2 d"] {
            let text = serde_json::to_string(&serde_json::json!({ "branches": bad })).expect("json");
            assert!(serde_json::from_str::<Held>(&text).is_err(), "{text} read");
        }
        for bad in [r#"{"branches":[1]}"#, r#"{"branches":1}"#, r#"{"branches":{"a":1}}"#] {
            assert!(serde_json::from_str::<Held>(bad).is_err(), "{bad} read");
        }
    }
}
