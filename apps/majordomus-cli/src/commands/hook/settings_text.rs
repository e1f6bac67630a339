//! A JSON settings file edited as text: only the bytes of what changes are
//! touched, everything else stays as it was written.
//!
//! An agent's settings file is somebody's file first. Reading it into a
//! value and writing the value back would rewrite it whole: its spacing,
//! and its numbers, which a JSON library holds as 64-bit floats or integers
//! (`12345678901234567890123`, `1e400` or `0.1000000000000000055511` come
//! back changed, or not at all). So the file is parsed here only to find
//! where things are: each value's byte span, each object's members in
//! order. An edit is a splice at one of those spans: a new member after an
//! object's last one (indented like it), a new element at the end of an
//! array, a value replaced in place. What no edit names is never re-encoded.

use std::ops::Range;

use serde_json::Value;

/// A JSON value, with the byte span it has in the text.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Object {
        span: Range<usize>,
        members: Vec<Member>,
    },
    Array {
        span: Range<usize>,
        items: Vec<Node>,
    },
    /// A string, decoded.
    Str {
        span: Range<usize>,
        value: String,
    },
    /// A number, `true`, `false` or `null`: kept as its text.
    Scalar {
        span: Range<usize>,
    },
}

/// An object's member: its key, decoded, the span of the whole member
/// (key to the end of the value), and the value.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    pub span: Range<usize>,
    pub value: Node,
}

impl Node {
    pub fn span(&self) -> &Range<usize> {
        match self {
            Node::Object { span, .. } | Node::Array { span, .. } | Node::Str { span, .. } | Node::Scalar { span } => {
                span
            }
        }
    }

    /// An object's member value by key (the last, where a key repeats, as
    /// JavaScript reads it); `None` for a missing key or a non-object.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object { members, .. } => members.iter().rev().find(|m| m.key == key).map(|m| &m.value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str { value, .. } => Some(value),
            _ => None,
        }
    }
}

/// Parses a whole JSON text; an error names the line and column.
pub fn parse(text: &str) -> Result<Node, String> {
    let mut p = Parser { text, bytes: text.as_bytes(), at: 0, depth: 0 };
    p.space();
    let node = p.value()?;
    p.space();
    if p.at != p.bytes.len() {
        return Err(p.error("unexpected text after the JSON value"));
    }
    Ok(node)
}

/// Nesting deeper than this is refused rather than followed.
const MAX_DEPTH: usize = 256;

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        let mut at = self.at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{what} at line {line} column {column}")
    }

    fn space(&mut self) {
        while self.bytes.get(self.at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.bytes.get(self.at) == Some(&b);
        if hit {
            self.at += 1;
        }
        hit
    }

    fn value(&mut self) -> Result<Node, String> {
        match self.bytes.get(self.at) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => {
                let start = self.at;
                let value = self.string()?;
                Ok(Node::Str { span: start..self.at, value })
            }
            Some(b't') => self.word("true"),
            Some(b'f') => self.word("false"),
            Some(b'n') => self.word("null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
            None => Err(self.error("expected a value, found the end")),
        }
    }

    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        Ok(())
    }

    fn object(&mut self) -> Result<Node, String> {
        let start = self.at;
        self.deeper()?;
        self.at += 1;
        let mut members = Vec::new();
        self.space();
        if !self.eat(b'}') {
            loop {
                self.space();
                if self.bytes.get(self.at) != Some(&b'"') {
                    return Err(self.error("expected a member's key"));
                }
                let key_start = self.at;
                let key = self.string()?;
                self.space();
                if !self.eat(b':') {
                    return Err(self.error("expected ':'"));
                }
                self.space();
                let value = self.value()?;
                members.push(Member { key, span: key_start..value.span().end, value });
                self.space();
                if self.eat(b',') {
                    continue;
                }
                if self.eat(b'}') {
                    break;
                }
                return Err(self.error("expected ',' or '}'"));
            }
        }
        self.depth -= 1;
        Ok(Node::Object { span: start..self.at, members })
    }

    fn array(&mut self) -> Result<Node, String> {
        let start = self.at;
        self.deeper()?;
        self.at += 1;
        let mut items = Vec::new();
        self.space();
        if !self.eat(b']') {
            loop {
                self.space();
                items.push(self.value()?);
                self.space();
                if self.eat(b',') {
                    continue;
                }
                if self.eat(b']') {
                    break;
                }
                return Err(self.error("expected ',' or ']'"));
            }
        }
        self.depth -= 1;
        Ok(Node::Array { span: start..self.at, items })
    }

    fn word(&mut self, word: &str) -> Result<Node, String> {
        let start = self.at;
        if !self.text[self.at..].starts_with(word) {
            return Err(self.error("expected a value"));
        }
        self.at += word.len();
        Ok(Node::Scalar { span: start..self.at })
    }

    fn number(&mut self) -> Result<Node, String> {
        let start = self.at;
        self.eat(b'-');
        let digits = |p: &mut Self| {
            let from = p.at;
            while p.bytes.get(p.at).is_some_and(u8::is_ascii_digit) {
                p.at += 1;
            }
            p.at > from
        };
        if self.eat(b'0') {
            // A leading zero stands alone.
        } else if !digits(self) {
            return Err(self.error("expected a digit"));
        }
        if self.eat(b'.') && !digits(self) {
            return Err(self.error("expected a digit after '.'"));
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _ = self.eat(b'+') || self.eat(b'-');
            if !digits(self) {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        Ok(Node::Scalar { span: start..self.at })
    }

    /// A string at `self.at` (its opening quote), decoded.
    fn string(&mut self) -> Result<String, String> {
        let start = self.at;
        self.at += 1;
        loop {
            match self.bytes.get(self.at) {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => break,
                Some(b'\\') => self.at += 2,
                Some(b) if *b < 0x20 => return Err(self.error("a control character in a string")),
                Some(_) => self.at += 1,
            }
        }
        self.at += 1;
        let raw = self.text.get(start..self.at).ok_or_else(|| self.error("a string that is not UTF-8"))?;
        serde_json::from_str::<String>(raw).map_err(|e| {
            self.at = start;
            self.error(&format!("a string that cannot be read ({e})"))
        })
    }
}

/// A change to the text: the bytes at `range` replaced by `with`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    pub range: Range<usize>,
    pub with: String,
}

/// The text with every splice made (splices must not overlap).
pub fn apply(text: &str, mut splices: Vec<Splice>) -> String {
    splices.sort_by_key(|s| std::cmp::Reverse(s.range.start));
    let mut out = text.to_string();
    for s in splices {
        out.replace_range(s.range, &s.with);
    }
    out
}

/// Replaces a value in place.
pub fn replace(node: &Node, value: &Value) -> Splice {
    Splice { range: node.span().clone(), with: value.to_string() }
}

/// Adds members at the end of an object, each indented like its last
/// member (or, in an empty object, one step deeper than the line that
/// opens it); on one line where the object is on one line.
pub fn insert_members(text: &str, object: &Node, new: &[(&str, Value)]) -> Splice {
    let Node::Object { span, members } = object else { unreachable_splice() };
    let entries: Vec<(String, &Value)> = new.iter().map(|(k, v)| (Value::from(*k).to_string() + ": ", v)).collect();
    insert(text, span, members.last().map(|m| m.span.clone()), &entries)
}

/// Adds an element at the end of an array, laid out as [`insert_members`] does.
pub fn push_item(text: &str, array: &Node, value: &Value) -> Splice {
    let Node::Array { span, items } = array else { unreachable_splice() };
    insert(text, span, items.last().map(|i| i.span().clone()), &[(String::new(), value)])
}

/// Only ever called with the kind of node its caller matched.
fn unreachable_splice() -> ! {
    unreachable!("a splice asked of the wrong kind of JSON value")
}

fn insert(text: &str, container: &Range<usize>, last: Option<Range<usize>>, entries: &[(String, &Value)]) -> Splice {
    let unit = indent_unit(text);
    match last {
        Some(last) => {
            let indent = own_line_indent(text, last.start);
            let mut with = String::new();
            for (prefix, value) in entries {
                match &indent {
                    Some(indent) => {
                        with.push_str(&format!(",\n{indent}{prefix}{}", pretty(value, &unit, indent)));
                    }
                    None => with.push_str(&format!(", {prefix}{value}")),
                }
            }
            Splice { range: last.end..last.end, with }
        }
        None => {
            // An empty container is laid out as the file is: over lines in
            // a file of lines, on one line in a file of one line.
            let outer = line_indent(text, container.start);
            if text.contains('\n') {
                let inner = format!("{outer}{unit}");
                let lines: Vec<String> = entries
                    .iter()
                    .map(|(prefix, value)| format!("{inner}{prefix}{}", pretty(value, &unit, &inner)))
                    .collect();
                Splice {
                    range: container.start + 1..container.end - 1,
                    with: format!("\n{}\n{outer}", lines.join(",\n")),
                }
            } else {
                let parts: Vec<String> = entries.iter().map(|(prefix, value)| format!("{prefix}{value}")).collect();
                Splice { range: container.start + 1..container.end - 1, with: parts.join(", ") }
            }
        }
    }
}

/// `value` pretty-printed with `unit` per level, its lines after the first
/// indented by `indent`.
fn pretty(value: &Value, unit: &str, indent: &str) -> String {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    serde::Serialize::serialize(value, &mut ser).unwrap_or_default();
    String::from_utf8_lossy(&out).replace('\n', &format!("\n{indent}"))
}

/// The whitespace before `at` on its line, when nothing else is there.
fn own_line_indent(text: &str, at: usize) -> Option<String> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    (before.chars().all(|c| c == ' ' || c == '\t') && text[..at].contains('\n')).then(|| before.to_string())
}

/// The leading whitespace of the line holding `at`.
fn line_indent(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
}

/// The file's step of indentation: a tab where lines are indented with
/// tabs, else the fewest spaces any line is indented by, else two.
fn indent_unit(text: &str) -> String {
    let mut fewest: Option<usize> = None;
    for line in text.lines().skip(1) {
        if line.starts_with('\t') {
            return "\t".to_string();
        }
        let n = line.chars().take_while(|c| *c == ' ').count();
        if n > 0 && n < line.len() {
            fewest = Some(fewest.map_or(n, |f| f.min(n)));
        }
    }
    " ".repeat(fewest.unwrap_or(2))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object_of(text: &str) -> Node {
        parse(text).expect("parse")
    }

    #[test]
    fn spans_cover_each_value_and_member_exactly() {
        let text = r#" { "a" : [1, -2.5e+3, true], "b\u00e9": {"c": null}, "d": "x\"y" } "#;
        let root = object_of(text);
        let Node::Object { members, .. } = &root else { panic!("an object") };
        let keys: Vec<&str> = members.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["a", "bé", "d"]);
        assert_eq!(&text[members[0].span.clone()], r#""a" : [1, -2.5e+3, true]"#);
        assert_eq!(&text[root.get("bé").expect("b").span().clone()], r#"{"c": null}"#);
        assert_eq!(root.get("d").and_then(Node::as_str), Some("x\"y"));
        let Some(Node::Array { items, .. }) = root.get("a") else { panic!("an array") };
        assert_eq!(&text[items[1].span().clone()], "-2.5e+3");
    }

    #[test]
    fn numbers_of_any_size_are_kept_as_written() {
        let text =
            r#"{"big": 123456789012345678901234567890, "huge": 1e400, "tiny": 0.1000000000000000055511151231257827}"#;
        let root = object_of(text);
        assert_eq!(&text[root.get("huge").expect("huge").span().clone()], "1e400");
        assert_eq!(&text[root.get("big").expect("big").span().clone()], "123456789012345678901234567890");
    }

    #[test]
    fn what_is_not_json_is_refused_with_its_place() {
        for (bad, at) in [
            ("{", "line 1 column 2"),
            ("{\"a\": }", "line 1 column 7"),
            ("{\"a\": 1,}", "line 1 column 9"),
            ("[1 2]", "line 1 column 4"),
            ("{\"a\": 01}", "line 1 column 8"),
            ("{\"a\": 1} x", "line 1 column 10"),
            ("{\n  \"a\": tru\n}", "line 2 column 8"),
            ("\"\\x\"", "line 1 column 1"),
            ("", "line 1 column 1"),
        ] {
            let err = parse(bad).expect_err(bad);
            assert!(err.ends_with(at), "{bad:?}: {err}");
        }
        assert!(parse(&"[".repeat(300)).expect_err("deep").starts_with("nesting too deep"));
    }

    #[test]
    fn a_member_added_to_an_indented_object_is_indented_like_its_neighbours() {
        let text = "{\n    \"a\": 1,\n    \"b\": {\"x\": 1e400}\n}\n";
        let root = object_of(text);
        let out = apply(text, vec![insert_members(text, &root, &[("c", json!({"d": [1]}))])]);
        assert_eq!(
            out,
            "{\n    \"a\": 1,\n    \"b\": {\"x\": 1e400},\n    \"c\": {\n        \"d\": [\n            1\n        ]\n    }\n}\n"
        );
    }

    #[test]
    fn members_added_to_an_empty_or_one_line_object_follow_its_layout() {
        let text = "{\n  \"hooks\": {}\n}";
        let hooks = object_of(text).get("hooks").expect("hooks").clone();
        let out = apply(text, vec![insert_members(text, &hooks, &[("a", json!(1)), ("b", json!(2))])]);
        assert_eq!(out, "{\n  \"hooks\": {\n    \"a\": 1,\n    \"b\": 2\n  }\n}");
        let one_line = r#"{"a": 1}"#;
        let out = apply(one_line, vec![insert_members(one_line, &object_of(one_line), &[("b", json!([2]))])]);
        assert_eq!(out, r#"{"a": 1, "b": [2]}"#);
        let empty = "{}";
        assert_eq!(apply(empty, vec![insert_members(empty, &object_of(empty), &[("b", json!(2))])]), r#"{"b": 2}"#);
    }

    #[test]
    fn an_element_pushed_and_a_value_replaced_leave_the_rest_alone() {
        let text = "{\n\t\"list\": [\n\t\t{\"n\": 1.50}\n\t],\n\t\"t\": 5\n}";
        let root = object_of(text);
        let list = root.get("list").expect("list");
        let out =
            apply(text, vec![push_item(text, list, &json!({"n": 2})), replace(root.get("t").expect("t"), &json!(60))]);
        assert_eq!(out, "{\n\t\"list\": [\n\t\t{\"n\": 1.50},\n\t\t{\n\t\t\t\"n\": 2\n\t\t}\n\t],\n\t\"t\": 60\n}");
        serde_json::from_str::<Value>(&out).expect("still JSON");
    }
}
