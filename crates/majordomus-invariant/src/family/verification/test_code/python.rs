//! Python's test items, as pytest collects them ([`PytestRules`]): a `def`
//! (or `async def`) whose name is a test function's, at module level or in
//! classes whose names are test classes', from its first decorator to the
//! last line of its body. A block ends at the next logical line indented no
//! deeper than its `def` or `class`; lines inside strings (triple-quoted
//! ones spanning lines included) and inside brackets continue the line
//! before and never end a block.

use super::pytest::PytestRules;
use super::TestItem;

/// One logical line's start: its 1-based number, its indentation and text.
pub(super) struct Logical<'a> {
    pub(super) line: usize,
    pub(super) indent: usize,
    pub(super) text: &'a str,
}

/// The test items of a Python file pytest collects (the caller asks
/// [`PytestRules::collects_file`] first).
pub fn read(text: &str, rules: &PytestRules) -> Vec<TestItem> {
    let lines: Vec<&str> = text.lines().collect();
    let logical = logical_lines(&lines);
    // Open blocks: (indent, is a test scope: the module or a test class).
    let mut items = Vec::new();
    let mut scopes: Vec<(usize, bool)> = Vec::new();
    for (k, l) in logical.iter().enumerate() {
        while scopes.last().is_some_and(|(indent, _)| *indent >= l.indent) {
            scopes.pop();
        }
        let in_test_scope = scopes.iter().all(|(_, test)| *test);
        let head = l.text.trim_start();
        let def = head.strip_prefix("async ").map(str::trim_start).unwrap_or(head).strip_prefix("def ");
        let class = head.strip_prefix("class ");
        let name =
            |rest: &str| rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("").to_string();
        if let Some(rest) = def {
            let name = name(rest);
            if in_test_scope && rules.is_test_function(&name) {
                let first = decorators_above(&logical, k);
                let last = block_end(&logical, &lines, k);
                items.push(TestItem { first, last, label: format!("def {name}") });
            }
            scopes.push((l.indent, false));
        } else if let Some(rest) = class {
            let name = name(rest);
            scopes.push((l.indent, in_test_scope && rules.is_test_class(&name)));
        }
    }
    items
}

/// The first line of the decorators directly above the logical line `k`.
pub(super) fn decorators_above(logical: &[Logical<'_>], k: usize) -> usize {
    let mut first = logical[k].line;
    let mut j = k;
    while j > 0 && logical[j - 1].indent == logical[k].indent && logical[j - 1].text.trim_start().starts_with('@') {
        j -= 1;
        first = logical[j].line;
    }
    first
}

/// The last line of the block the logical line `k` opens: the last line
/// holding code before the next logical line indented no deeper, or before
/// the end of the file (blank and comment lines after it left out).
pub(super) fn block_end(logical: &[Logical<'_>], lines: &[&str], k: usize) -> usize {
    let indent = logical[k].indent;
    let stop = logical[k + 1..].iter().find(|l| l.indent <= indent).map_or(lines.len(), |next| next.line - 1);
    let mut last = stop;
    while last > logical[k].line {
        let t = lines[last - 1].trim();
        if !(t.is_empty() || t.starts_with('#')) {
            break;
        }
        last -= 1;
    }
    last
}

/// The lines that start a logical line (not inside a string or brackets,
/// not blank, not only a comment), with their indentation.
pub(super) fn logical_lines<'a>(lines: &[&'a str]) -> Vec<Logical<'a>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_triple: Option<&'static str> = None;
    for (n, line) in lines.iter().enumerate() {
        let starts_logical = depth == 0 && in_triple.is_none();
        let trimmed = line.trim_start();
        if starts_logical && !trimmed.is_empty() && !trimmed.starts_with('#') {
            out.push(Logical { line: n + 1, indent: line.len() - trimmed.len(), text: line });
        }
        scan(line, &mut depth, &mut in_triple);
    }
    out
}

/// The lines of a statement that is only string literals (a docstring, a
/// bare `"covers the fix"`, `f"covers the fix"` with no placeholder, a
/// parenthesised `("covers the fix")`, a tuple of strings): a logical
/// line whose code is string literals, brackets and commas alone, to the
/// line it closes on, where nothing follows but a comment. Such a
/// statement runs nothing and asserts nothing (test/cases/510, 513). An
/// f-string with a placeholder evaluates what it names (a call may
/// assert), so it is code.
pub fn string_statements(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let prefix = |c: char| matches!(c, 'r' | 'R' | 'b' | 'B' | 'u' | 'U' | 'f' | 'F');
    let mut out = Vec::new();
    for l in logical_lines(&lines) {
        let head = l.text.trim_start();
        let unprefixed = head.trim_start_matches(prefix);
        if !unprefixed.starts_with(['"', '\'', '(']) {
            continue;
        }
        let (mut depth, mut in_triple) = (0usize, None);
        scan(head, &mut depth, &mut in_triple);
        if let Some(close) = in_triple {
            // A triple-quoted string opening the statement: to the line it
            // closes on, where nothing but a comment may follow it.
            if !(unprefixed.starts_with("\"\"\"") || unprefixed.starts_with("\'\'\'")) {
                continue;
            }
            let end = (l.line + 1..=lines.len()).find(|&n| lines[n - 1].contains(close));
            let Some(end) = end else { continue };
            let after = lines[end - 1].split_once(close).map_or("", |(_, a)| a).trim();
            let formatted = head.len() > unprefixed.len() && head[..head.len() - unprefixed.len()].contains(['f', 'F']);
            if formatted && lines[l.line - 1..end].iter().any(|t| has_placeholder(t)) {
                continue;
            }
            if after.is_empty() || after.starts_with('#') {
                out.extend(l.line..=end);
            }
            continue;
        }
        // A statement on one line, or continued over lines by its
        // brackets (no string spanning lines among them).
        let (mut masked, mut raw, mut last) = (String::new(), String::new(), l.line);
        let cut = |line: &str, masked: &mut String, raw: &mut String| {
            let code = super::disabled::mask_strings(line);
            let at = code.find('#').unwrap_or(code.len());
            masked.push_str(&code[..at]);
            masked.push(' ');
            raw.push_str(&line[..at]);
            raw.push(' ');
        };
        cut(head, &mut masked, &mut raw);
        while depth > 0 && in_triple.is_none() && last < lines.len() {
            last += 1;
            cut(lines[last - 1], &mut masked, &mut raw);
            scan(lines[last - 1], &mut depth, &mut in_triple);
        }
        if depth == 0 && in_triple.is_none() && only_string_literals(&masked, &raw) {
            out.extend(l.line..=last);
        }
    }
    out
}

/// Whether code (`masked`: its strings' insides blanked, byte for byte, so
/// offsets are those of `raw`, as written) is string literals, brackets and
/// commas alone, with at least one literal, and no f-string among them
/// with a placeholder. A name before a bracket (`f("x")`, a call) is code.
fn only_string_literals(masked: &str, raw: &str) -> bool {
    let m = masked.as_bytes();
    let (mut i, mut literals) = (0, 0);
    while i < m.len() {
        if matches!(m[i], b' ' | b'\t' | b'(' | b')' | b',') {
            i += 1;
            continue;
        }
        let start = i;
        while i < m.len() && m[i].is_ascii_alphabetic() {
            i += 1;
        }
        let prefix = &masked[start..i];
        if prefix.len() > 2 || !prefix.chars().all(|c| "rRbBuUfF".contains(c)) {
            return false;
        }
        let Some(&quote) = m.get(i).filter(|q| matches!(q, b'"' | b'\'')) else { return false };
        let Some(end) = masked[i + 1..].find(quote as char).map(|p| i + 1 + p) else { return false };
        if prefix.contains(['f', 'F']) && has_placeholder(&raw[i + 1..end]) {
            return false;
        }
        literals += 1;
        i = end + 1;
    }
    literals > 0
}

/// Whether an f-string's text holds a placeholder (a `{` not doubled).
fn has_placeholder(text: &str) -> bool {
    text.replace("{{", "").contains('{')
}

/// Follows one line's brackets and strings: the bracket depth and the
/// triple-quoted string open at its end.
fn scan(line: &str, depth: &mut usize, in_triple: &mut Option<&'static str>) {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if let Some(q) = *in_triple {
            match line[i..].find(q) {
                Some(p) => {
                    i += p + 3;
                    *in_triple = None;
                }
                None => return,
            }
            continue;
        }
        match b[i] {
            b'#' => return,
            b'"' | b'\'' => {
                let q = b[i];
                if b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q) {
                    *in_triple = Some(if q == b'"' { "\"\"\"" } else { "'''" });
                    i += 3;
                    continue;
                }
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'(' | b'[' | b'{' => {
                *depth += 1;
                i += 1;
            }
            b')' | b']' | b'}' => {
                *depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(text: &str) -> Vec<(usize, usize, String)> {
        read(text, &PytestRules::default()).into_iter().map(|i| (i.first, i.last, i.label)).collect()
    }

    #[test]
    fn module_level_tests_and_methods_of_test_classes_are_items_with_their_decorators() {
        let src = "import pytest\n\ndef helper():\n    return 1\n\n@pytest.mark.parametrize(\"x\", [1, 2])\ndef test_x(x):\n    assert x\n\nclass TestApi:\n    def test_get(self):\n        pass\n\n    def setup_method(self):\n        pass\n\nclass Api:\n    def test_not_collected(self):\n        pass\n\nasync def test_async():\n    pass\n";
        assert_eq!(
            items(src),
            [
                (6, 8, "def test_x".to_string()),
                (11, 12, "def test_get".to_string()),
                (21, 22, "def test_async".to_string())
            ]
        );
    }

    #[test]
    fn strings_and_brackets_never_end_a_block() {
        let src = "def test_doc(\n    a,\n):\n    text = \"\"\"\nnot indented\n\"\"\"\n    assert (\n1)\n    x = '#'\n\ndef other():\n    pass\n";
        assert_eq!(items(src), [(1, 9, "def test_doc".to_string())]);
    }

    #[test]
    fn a_nested_function_is_not_a_test_of_its_own() {
        let src = "def outer():\n    def test_inner():\n        pass\n";
        assert!(items(src).is_empty());
    }
}
