//! Rust's test items: what `#[test]`, `#[cfg(test)]` and the test
//! frameworks' attributes mark (the list is in `mod.rs`). The source is
//! first masked (comments and the insides of string, byte-string, raw-string
//! and character literals made blanks, newlines kept), so a brace in a
//! string or a `#[test]` in a comment is never taken for code.

use super::{ident_byte, line_of, matching, TestItem};

/// What a Rust file holds of tests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RustFile {
    pub items: Vec<TestItem>,
    /// The file opens with `#![cfg(test)]`: all of it is test code.
    pub whole: bool,
    /// The modules it declares under a test attribute as files of their
    /// own (`#[cfg(test)] mod tests;`): all of each is test code.
    pub test_modules: Vec<String>,
}

/// Reads a Rust file's test items.
pub fn read(text: &str) -> RustFile {
    let code = mask(text.as_bytes());
    let mut file = RustFile::default();
    let mut i = 0;
    while i + 1 < code.len() {
        if code[i] != b'#' {
            i += 1;
            continue;
        }
        let inner = code[i + 1] == b'!';
        let open = if inner { i + 2 } else { i + 1 };
        if code.get(open) != Some(&b'[') {
            i += 1;
            continue;
        }
        let Some(close) = matching(&code, open) else { break };
        let attr = String::from_utf8_lossy(&code[open + 1..close]).into_owned();
        if is_test_attribute(&attr) {
            if inner {
                file.whole |= attr.split_whitespace().collect::<String>().starts_with("cfg(");
            } else if let Some((end, label, declared)) = item_after(&code, close + 1) {
                match declared {
                    Some(module) => file.test_modules.push(module),
                    None => file.items.push(TestItem {
                        first: line_of(&code, i),
                        last: line_of(&code, end),
                        label: format!("{label} (#[{}])", attr.split_whitespace().collect::<Vec<_>>().join(" ")),
                    }),
                }
            }
        }
        i = close + 1;
    }
    file
}

/// Whether an attribute's text (inside `#[...]`) marks test code.
pub fn is_test_attribute(attr: &str) -> bool {
    let compact: String = attr.chars().filter(|c| !c.is_whitespace()).collect();
    let path = compact.split('(').next().unwrap_or("");
    if path == "cfg" {
        return implies_test(&compact["cfg".len()..]);
    }
    path == "test"
        || path.ends_with("::test")
        || matches!(path, "test_case" | "rstest" | "quickcheck" | "proptest" | "test_log::test")
}

/// Whether a cfg predicate (`(test)`, `(all(test,feature="x"))`), the
/// bracketed text after `cfg`, holds only when `test` does: only then is
/// what it gates compiled for tests alone. `test` implies it; `all(..)` does
/// when any member does; `any(..)` only when every member does (it compiles
/// whenever one holds, so `any(test, feature = "std")` is production code
/// wherever std is on: test/cases/468); `not(..)`, any other name, and what
/// cannot be parsed never do, so a predicate not understood is not read as
/// test code.
fn implies_test(predicate: &str) -> bool {
    let mut cfg = Predicate { text: predicate.as_bytes(), at: 0 };
    if !cfg.eat(b'(') {
        return false;
    }
    let Some(implied) = cfg.predicate() else { return false };
    cfg.eat(b')') && cfg.at == cfg.text.len() && implied
}

/// A cfg predicate (whitespace taken out) read from its start, evaluating
/// as it goes whether each part implies `test`.
struct Predicate<'a> {
    text: &'a [u8],
    at: usize,
}

impl Predicate<'_> {
    /// Steps over `b` when it comes next.
    fn eat(&mut self, b: u8) -> bool {
        let next = self.text.get(self.at) == Some(&b);
        self.at += usize::from(next);
        next
    }

    /// One predicate: a name, `name = "value"`, or `name(list)`. `None`
    /// where the text is not one.
    fn predicate(&mut self) -> Option<bool> {
        let from = self.at;
        while self.text.get(self.at).is_some_and(|&b| ident_byte(b) || b == b':') {
            self.at += 1;
        }
        let name = &self.text[from..self.at];
        if name.is_empty() {
            return None;
        }
        if self.eat(b'=') {
            self.string()?;
            return Some(false);
        }
        if !self.eat(b'(') {
            return Some(name == b"test");
        }
        let mut members = Vec::new();
        while !self.eat(b')') {
            members.push(self.predicate()?);
            if !self.eat(b',') && self.text.get(self.at) != Some(&b')') {
                return None;
            }
        }
        Some(match name {
            b"all" => members.iter().any(|&m| m),
            b"any" => !members.is_empty() && members.iter().all(|&m| m),
            _ => false,
        })
    }

    /// A string literal (masked code leaves its quotes with blanks, taken
    /// out; an attribute read as it was written keeps its text).
    fn string(&mut self) -> Option<()> {
        if !self.eat(b'"') {
            return None;
        }
        while !self.eat(b'"') {
            let b = *self.text.get(self.at)?;
            self.at += if b == b'\\' { 2 } else { 1 };
        }
        Some(())
    }
}

/// The item an attribute ending before `from` applies to: the offset of its
/// last byte, its label (`fn name`, `mod name`, ...), and, for `mod NAME;`,
/// the module declared as a file. Further attributes are skipped.
fn item_after(code: &[u8], from: usize) -> Option<(usize, String, Option<String>)> {
    let mut i = from;
    loop {
        while i < code.len() && code[i].is_ascii_whitespace() {
            i += 1;
        }
        if code.get(i) == Some(&b'#') && code.get(i + 1) == Some(&b'[') {
            i = matching(code, i + 1)? + 1;
            continue;
        }
        break;
    }
    let start = i;
    let mut depth = 0usize;
    while i < code.len() {
        match code[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'{' if depth == 0 => {
                let end = matching(code, i)?;
                return Some((end, label(&code[start..i]), None));
            }
            b';' if depth == 0 => {
                let head = label(&code[start..i]);
                let declared = head.strip_prefix("mod ").map(str::to_string);
                return Some((i, head, declared));
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `fn name`, `mod name`, `impl Type`: the words of an item's head that
/// name it, visibility and qualifiers left out.
fn label(head: &[u8]) -> String {
    let text = String::from_utf8_lossy(head);
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == '(' || c == '<' || c == ':').collect();
    let words: Vec<&str> = words.into_iter().filter(|w| !w.is_empty()).collect();
    for kind in ["fn", "mod", "impl", "struct", "enum", "trait", "const", "static", "use", "macro_rules!"] {
        if let Some(at) = words.iter().position(|w| *w == kind) {
            return match words.get(at + 1) {
                Some(name) => format!("{kind} {name}"),
                None => kind.to_string(),
            };
        }
    }
    words.iter().take(3).copied().collect::<Vec<_>>().join(" ")
}

/// The source with comments and the insides of literals made blanks (a
/// newline stays a newline), so brackets and attributes are found in code only.
pub fn mask(src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to.min(src.len())] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        let prev_ident = i > 0 && ident_byte(src[i - 1]);
        if b == b'/' && src.get(i + 1) == Some(&b'/') {
            let end = src[i..].iter().position(|&c| c == b'\n').map_or(src.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if b == b'/' && src.get(i + 1) == Some(&b'*') {
            let mut depth = 0usize;
            let mut j = i;
            while j < src.len() {
                if src[j] == b'/' && src.get(j + 1) == Some(&b'*') {
                    depth += 1;
                    j += 2;
                } else if src[j] == b'*' && src.get(j + 1) == Some(&b'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if !prev_ident && (b == b'r' || (b == b'b' && src.get(i + 1) == Some(&b'r'))) && raw_start(src, i) {
            let at = if b == b'b' { i + 2 } else { i + 1 };
            let hashes = src[at..].iter().take_while(|&&c| c == b'#').count();
            let body = at + hashes + 1;
            let mut j = body;
            let end = loop {
                if j >= src.len() {
                    break src.len();
                }
                if src[j] == b'"' && src[j + 1..].iter().take(hashes).filter(|&&c| c == b'#').count() == hashes {
                    break j;
                }
                j += 1;
            };
            blank(&mut out, body, end);
            i = end + 1 + hashes;
        } else if b == b'"' {
            let mut j = i + 1;
            while j < src.len() && src[j] != b'"' {
                j += if src[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j);
            i = j + 1;
        } else if b == b'\'' {
            // A character literal, or a lifetime or label (left as it is).
            if src.get(i + 1) == Some(&b'\\') {
                let end = src[i + 2..].iter().take(12).position(|&c| c == b'\'').map(|p| i + 2 + p);
                if let Some(end) = end {
                    blank(&mut out, i + 1, end);
                    i = end + 1;
                    continue;
                }
            } else if let Some(&lead) = src.get(i + 1) {
                // One character, however many bytes UTF-8 gives it, then a quote.
                let len = match lead {
                    0..=0x7f => 1,
                    0xc0..=0xdf => 2,
                    0xe0..=0xef => 3,
                    _ => 4,
                };
                if lead != b'\n' && src.get(i + 1 + len) == Some(&b'\'') {
                    blank(&mut out, i + 1, i + 1 + len);
                    i += len + 2;
                    continue;
                }
            }
            i += 1;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether a raw string (`r"`, `r#"`, `br"`, ...) starts at `i`.
fn raw_start(src: &[u8], i: usize) -> bool {
    let at = if src[i] == b'b' { i + 2 } else { i + 1 };
    let hashes = src[at.min(src.len())..].iter().take_while(|&&c| c == b'#').count();
    src.get(at + hashes) == Some(&b'"')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str) -> Vec<(usize, usize, String)> {
        read(text).items.into_iter().map(|i| (i.first, i.last, i.label)).collect()
    }

    #[test]
    fn an_inline_test_module_and_its_tests_are_test_items_with_their_lines() {
        let src = "pub fn add(a: u8) -> u8 {\n    a + 1\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1), 2);\n    }\n}\n";
        assert_eq!(
            labels(src),
            [(5, 13, "mod tests (#[cfg(test)])".to_string()), (9, 12, "fn adds (#[test])".to_string())]
        );
    }

    #[test]
    fn braces_and_attributes_in_strings_comments_and_chars_are_not_code() {
        let src = r####"
// #[test] fn commented() {}
/* #[test] /* nested */ fn block() {} */
#[test]
fn real() -> Result<(), String> {
    let s = "}}}";
    let r = r#"{"a": "}"}"#;
    let c = '}';
    let l: &'static str = "x";
    let u = '\u{1F600}';
    let e = 'é';
    let b = b'{';
    Ok(())
}
fn after() {}
"####;
        assert_eq!(labels(src), [(4, 14, "fn real (#[test])".to_string())]);
    }

    #[test]
    fn framework_attributes_count_and_a_negated_cfg_does_not() {
        let src = "#[tokio::test]\nasync fn a() {}\n#[cfg(not(test))]\nfn b() {}\n#[cfg(all(test, feature = \"x\"))]\nfn c() {}\n#[test_case(1 ; \"one\")]\n#[test_case(2)]\nfn d(n: u8) {}\n#[cfg(testing)]\nfn e() {}\n";
        let found: Vec<String> = labels(src).into_iter().map(|(_, _, l)| l).collect();
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].starts_with("fn a") && found[1].starts_with("fn c") && found[2].starts_with("fn d"));
        assert!(found[3].starts_with("fn d"), "the second test_case attribute marks the same fn: {found:?}");
    }

    #[test]
    fn a_cfg_predicate_marks_test_code_only_where_it_implies_test() {
        for test_only in [
            "cfg(test)",
            "cfg(all(test, feature = \"x\"))",
            "cfg(all(unix, not(miri), test))",
            "cfg(any(test, all(test, unix)))",
            "cfg(all(any(test), feature = \"a,b)\"))",
        ] {
            assert!(is_test_attribute(test_only), "{test_only}");
        }
        for compiled_without_tests in [
            "cfg(any(test, feature = \"std\"))",
            "cfg(any(test, debug_assertions))",
            "cfg(any(all(test, unix), windows))",
            "cfg(not(test))",
            "cfg(not(not(test)))",
            "cfg(any())",
            "cfg(all())",
            "cfg(testing)",
            "cfg(test = \"x\")",
            "cfg(feature = \"test\")",
            "cfg(test, unix)",
            "cfg(all(test",
        ] {
            assert!(!is_test_attribute(compiled_without_tests), "{compiled_without_tests}");
        }
        let f = read("#[cfg(any(test, feature = \"std\"))]\nimpl E {\n    fn d() {}\n}\n");
        assert!(f.items.is_empty(), "{:?}", f.items);
        assert!(!read("#![cfg(any(test, feature = \"std\"))]\nfn f() {}\n").whole);
        assert!(read("#[cfg(any(test, feature = \"std\"))]\nmod helpers;\n").test_modules.is_empty());
    }

    #[test]
    fn a_test_module_declared_as_a_file_and_an_inner_cfg_test_are_seen() {
        let f = read("mod a;\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\n#[path = \"t.rs\"]\nmod other;\n");
        assert_eq!(f.test_modules, ["tests", "other"]);
        assert!(f.items.is_empty());
        assert!(read("//! helpers\n#![cfg(test)]\nuse super::*;\n").whole);
        assert!(!read("#![allow(dead_code)]\n").whole);
    }

    #[test]
    fn a_cfg_predicate_naming_something_outside_ascii_is_read_without_a_panic() {
        assert!(is_test_attribute("cfg(all(\u{fc}, test))"));
        let f = read("#[cfg(all(gr\u{f6}\u{df}e, test))]\nmod tests {\n    #[test]\n    fn t() {}\n}\n");
        assert_eq!(f.items.len(), 2, "{:?}", f.items);
    }
}
