//! A map from names to values, kept as a list sorted by name: what the
//! start snapshot records per branch, per worktree, per remote-tracking ref.
//!
//! These are written once, at the start, and read at every `check`, whole,
//! in order: each local branch is looked up in the start's branches as the
//! branches are walked, sorted by name. At ten thousand branches, building
//! a search tree while parsing the task record (an allocation and a dozen
//! comparisons of names sharing a long prefix per entry) was a tenth of a
//! check; a list already in order is built as it is read. The JSON text is
//! the one a `BTreeMap` writes (an object, keys in order), and a record
//! whose keys are out of order or repeated reads as a `BTreeMap` reads it
//! (sorted; the last value of a repeated key wins), so the two cannot
//! answer differently.
//!
//! [`Names::in_order`] looks names up in one pass when they come sorted,
//! each costing a comparison or two; a name out of order is looked up by
//! binary search, so the answer never depends on the order.

use std::cmp::Ordering;
use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Values by name, sorted by name, each name once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names<V> {
    entries: Vec<(String, V)>,
}

impl<V> Default for Names<V> {
    fn default() -> Self {
        Names { entries: Vec::new() }
    }
}

impl<V> Names<V> {
    /// `entries` in any order; of a name given twice, the last value.
    fn sorted(mut entries: Vec<(String, V)>) -> Self {
        if entries.windows(2).all(|w| w[0].0 < w[1].0) {
            return Names { entries };
        }
        // Stable: of equal names, the one given last stays last.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(String, V)> = Vec::with_capacity(entries.len());
        for (name, value) in entries {
            match out.last_mut() {
                Some(last) if last.0 == name => last.1 = value,
                _ => out.push((name, value)),
            }
        }
        Names { entries: out }
    }

    pub fn get(&self, name: &str) -> Option<&V> {
        self.entries.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok().map(|i| &self.entries[i].1)
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The names and their values, sorted by name.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&String, &V)> + DoubleEndedIterator {
        self.entries.iter().map(|(name, value)| (name, value))
    }

    pub fn keys(&self) -> impl ExactSizeIterator<Item = &String> + DoubleEndedIterator {
        self.entries.iter().map(|(name, _)| name)
    }

    pub fn values(&self) -> impl ExactSizeIterator<Item = &V> + DoubleEndedIterator {
        self.entries.iter().map(|(_, value)| value)
    }

    /// A cursor answering [`InOrder::get`] as [`Names::get`] answers.
    pub fn in_order(&self) -> InOrder<'_, V> {
        InOrder { entries: &self.entries, next: 0 }
    }
}

impl<V> FromIterator<(String, V)> for Names<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(iter: I) -> Self {
        Names::sorted(iter.into_iter().collect())
    }
}

impl<V> From<std::collections::BTreeMap<String, V>> for Names<V> {
    fn from(map: std::collections::BTreeMap<String, V>) -> Self {
        Names { entries: map.into_iter().collect() }
    }
}

impl<V, const N: usize> From<[(String, V); N]> for Names<V> {
    fn from(entries: [(String, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<'a, V> IntoIterator for &'a Names<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (String, V)>, fn(&'a (String, V)) -> (&'a String, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(name, value)| (name, value))
    }
}

impl<V> std::ops::Index<&str> for Names<V> {
    type Output = V;

    fn index(&self, name: &str) -> &V {
        self.get(name).unwrap_or_else(|| panic!("no entry named {name:?}"))
    }
}

/// Names looked up in one pass over a [`Names`] when they come sorted.
#[derive(Debug)]
pub struct InOrder<'a, V> {
    entries: &'a [(String, V)],
    /// Where the next name in order is looked for: every entry before it
    /// is less than a name already asked for.
    next: usize,
}

impl<'a, V> InOrder<'a, V> {
    /// What the map holds for `name`, as [`Names::get`] answers.
    pub fn get(&mut self, name: &str) -> Option<&'a V> {
        let entries = self.entries;
        if self.next > 0 && name <= entries[self.next - 1].0.as_str() {
            // Out of order (or asked again): searched for.
            return entries[..self.next].binary_search_by(|(n, _)| n.as_str().cmp(name)).ok().map(|i| &entries[i].1);
        }
        while let Some((key, value)) = entries.get(self.next) {
            match key.as_str().cmp(name) {
                Ordering::Less => self.next += 1,
                Ordering::Equal => return Some(value),
                Ordering::Greater => return None,
            }
        }
        None
    }
}

impl<V: Serialize> Serialize for Names<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.entries.iter().map(|(name, value)| (name, value)))
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Names<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<V>(std::marker::PhantomData<V>);

        impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
            type Value = Names<V>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
                while let Some(entry) = map.next_entry::<String, V>()? {
                    entries.push(entry);
                }
                Ok(Names::sorted(entries))
            }
        }

        deserializer.deserialize_map(Entries(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    const NAMES: [&str; 7] = ["a", "a-b", "a/x", "b", "topic/b0001", "topic/b0002", "z"];

    fn both() -> (Names<usize>, BTreeMap<String, usize>) {
        let pairs = || NAMES.iter().enumerate().map(|(i, k)| (k.to_string(), i));
        (pairs().collect(), pairs().collect())
    }

    #[test]
    fn every_lookup_answers_as_a_btree_map_does_in_any_order() {
        let (names, map) = both();
        let asked =
            ["", "a", "a-b", "a.", "a/x", "a/y", "b", "c", "topic/b0001", "topic/b0002", "topic/b0003", "z", "zz"];
        let mut sorted = names.in_order();
        for name in asked {
            assert_eq!(names.get(name), map.get(name), "{name:?}");
            assert_eq!(sorted.get(name), map.get(name), "{name:?} in order");
            assert_eq!(sorted.get(name), map.get(name), "{name:?} asked again");
        }
        let mut shuffled = names.in_order();
        for name in ["topic/b0002", "a", "zz", "b", "a/x", "z", "", "topic/b0001"] {
            assert_eq!(shuffled.get(name), map.get(name), "{name:?} out of order");
        }
    }

    #[test]
    fn the_json_text_is_the_one_a_btree_map_writes_and_reads() {
        let (names, map) = both();
        assert_eq!(serde_json::to_string(&names).expect("json"), serde_json::to_string(&map).expect("json"));
        // Out of order and repeated: read as a BTreeMap reads it.
        let text = r#"{"z":1,"a":2,"m":3,"a":4,"b":5}"#;
        let read: Names<u32> = serde_json::from_str(text).expect("json");
        let as_map: BTreeMap<String, u32> = serde_json::from_str(text).expect("json");
        assert_eq!(
            read.iter().map(|(k, v)| (k.clone(), *v)).collect::<Vec<_>>(),
            as_map.into_iter().collect::<Vec<_>>()
        );
        assert!(serde_json::from_str::<Names<u32>>("[1]").is_err(), "an object, or nothing");
    }
}
