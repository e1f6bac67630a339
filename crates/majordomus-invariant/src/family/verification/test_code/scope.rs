//! Lines turned off by what encloses them: a test written under a switch
//! that takes its whole file, module, class or item out of the run adds
//! no test, however real its lines (test/cases/509). A line that is only
//! the switch is [`super::disables_a_test`]'s (test/cases/436, 480); this
//! reads the lines under it, in the file as it is now, whatever the start
//! held, so a test added into a module the start already had skipped is
//! no test either.
//!
//! What encloses a line, by language:
//!
//! - **Rust**: an inner `#![cfg(P)]` (the whole file) or an outer
//!   `#[cfg(P)]` over an item (its attributes to its closing brace) whose
//!   predicate never holds in a test build ([`cfg_here`]: `any()`,
//!   `all(test, any())`, `not(test)`, another platform's `target_os`); an
//!   item under `#[ignore]` or `#[cfg_attr(P, ignore)]`;
//! - **Go**: a build constraint above the `package` clause that never holds
//!   here ([`go_build_here`]: `ignore`, another platform's name), the file;
//! - **Python**: a module-level `pytestmark` that turns tests off, a skip
//!   of the module or `__test__ = False` (the file); a decorator that does
//!   over a `class` or `def`, or a name bound to such a mark at module
//!   level (its decorators to the end of its body); `__test__ = False` or
//!   such a `pytestmark` in a class's body (the class); `if False:` (its
//!   block: test/cases/512); a conditional mark (`skipif(COND, ..)`) only
//!   where COND is read as keeping it off here.
//!
//! A predicate, tag or condition not understood may hold, so it turns
//! nothing off: only what is read as never running here is taken out.
//! Reading is one pass over a file already read, bounded by its size.

use super::disabled::{off_for_certain_here, Dialect};
use super::{matching, python, rust, Imports};

/// Lines `first..=last` (1-based) turned off by the switch on line `switch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Off {
    pub switch: usize,
    pub first: usize,
    pub last: usize,
}

/// The switch turning line `n` off, if one encloses it.
pub fn switch_of(offs: &[Off], n: usize) -> Option<usize> {
    offs.iter().find(|o| o.first <= n && n <= o.last).map(|o| o.switch)
}

/// The spans of `text`, a file in `dialect` whose imports bind `imports`,
/// that a switch enclosing them turns off.
pub fn switched_off(text: &str, dialect: Dialect, imports: &Imports) -> Vec<Off> {
    match dialect {
        Dialect::Rust => rust_spans(text),
        Dialect::Go => go_file(text).into_iter().collect(),
        Dialect::Python => python_spans(text, imports),
        _ => Vec::new(),
    }
}

/// Rust: a file whose inner `cfg` never holds, and items under an outer
/// `cfg` that never holds or under `ignore`.
fn rust_spans(text: &str) -> Vec<Off> {
    let src = text.as_bytes();
    let code = rust::mask(src);
    let lines = text.lines().count();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = code[i..].windows(2).position(|w| w == b"#[" || w == b"#!").map(|p| i + p) {
        let inner = code[p + 1] == b'!';
        let open = if inner { p + 2 } else { p + 1 };
        if code.get(open) != Some(&b'[') {
            i = p + 1;
            continue;
        }
        let Some(close) = matching(&code, open) else { break };
        let attr: String =
            String::from_utf8_lossy(&src[open + 1..close]).chars().filter(|c| !c.is_whitespace()).collect();
        if rust_attribute_off(&attr) {
            let switch = super::line_of(src, p);
            if inner {
                out.push(Off { switch, first: 1, last: lines });
                break;
            }
            if let Some(end) = item_end(&code, close + 1) {
                out.push(Off { switch, first: switch, last: super::line_of(src, end) });
            }
        }
        i = close + 1;
    }
    out
}

/// Whether an attribute's text (inside `#[...]`, space taken out) takes
/// its item out of a test run: `ignore`, a `cfg_attr` that may apply
/// `ignore`, or a `cfg` that never holds in a test build.
fn rust_attribute_off(attr: &str) -> bool {
    if attr == "ignore" || attr.starts_with("ignore=") || attr.starts_with("ignore(") {
        return true;
    }
    if let Some(args) = attr.strip_prefix("cfg_attr(") {
        let (predicate, rest) = cfg_here(args);
        return predicate != Some(false)
            && rest.strip_prefix(',').is_some_and(|r| r.split([',', ')']).any(|w| w == "ignore"));
    }
    attr.strip_prefix("cfg(").is_some_and(|p| cfg_here(p).0 == Some(false))
}

/// The end (the offset of its closing brace, or of the `;` or `,` that
/// ends it) of what the attributes ending before `from` are on, further
/// attributes skipped: an item's body, or a field, a variant or an argument
/// (`#[cfg(windows)] handle: Handle,`), which ends at its comma or at the
/// brace closing the list it is in, never at the next item's brace
/// (test/cases/509). Brackets and parentheses are stepped over whole.
fn item_end(code: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let at = from + code[from..].iter().position(|b| !b.is_ascii_whitespace())?;
        if code[at] == b'#' && code.get(at + 1) == Some(&b'[') {
            from = matching(code, at + 1)? + 1;
            continue;
        }
        let mut i = at;
        while i < code.len() {
            match code[i] {
                b'(' | b'[' => i = matching(code, i)? + 1,
                b'{' => return matching(code, i),
                b';' | b',' | b'}' | b')' | b']' => return Some(i),
                _ => i += 1,
            }
        }
        return None;
    }
}

/// A cfg predicate (space taken out) read from its start, in a test build
/// on this machine: `Some(false)` where it never holds, `Some(true)` where
/// it always does, `None` where it may either way (a feature, a flag);
/// with the text after it.
pub fn cfg_here(p: &str) -> (Option<bool>, &str) {
    let name_len = p.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(p.len());
    let (name, rest) = p.split_at(name_len);
    if let Some(mut rest) = rest.strip_prefix('(') {
        let mut values = Vec::new();
        while !rest.starts_with(')') {
            let (value, after) = cfg_here(rest);
            values.push(value);
            if after.len() == rest.len() {
                return (None, "");
            }
            rest = after.strip_prefix(',').unwrap_or(after);
            if rest.is_empty() {
                return (None, "");
            }
        }
        let rest = &rest[1..];
        let value = match name {
            "any" if values.contains(&Some(true)) => Some(true),
            "any" => values.iter().all(|v| *v == Some(false)).then_some(false),
            "all" if values.contains(&Some(false)) => Some(false),
            "all" => values.iter().all(|v| *v == Some(true)).then_some(true),
            "not" if values.len() == 1 => values[0].map(|v| !v),
            _ => None,
        };
        return (value, rest);
    }
    if let Some(rest) = rest.strip_prefix("=\"") {
        let end = rest.find('"').unwrap_or(rest.len());
        let (value, rest) = (&rest[..end], rest.get(end + 1..).unwrap_or(""));
        let known = match name {
            "target_os" => Some(value == std::env::consts::OS),
            "target_family" => Some(value == std::env::consts::FAMILY),
            _ => None,
        };
        return (known, rest);
    }
    let value = match name {
        "test" | "true" => Some(true),
        "false" => Some(false),
        "unix" => Some(cfg!(unix)),
        "windows" => Some(cfg!(windows)),
        _ => None,
    };
    (value, rest)
}

/// Go: the whole file, where a build constraint above its `package` clause
/// never holds here.
fn go_file(text: &str) -> Option<Off> {
    let lines = text.lines().count();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with("package ") {
            return None;
        }
        let holds = if let Some(expr) = line.strip_prefix("//go:build") {
            go_build_here(expr)
        } else if let Some(terms) = line.strip_prefix("// +build") {
            plus_build_here(terms)
        } else {
            continue;
        };
        if holds == Some(false) {
            return Some(Off { switch: n + 1, first: 1, last: lines });
        }
    }
    None
}

/// A build tag's truth here: `ignore` never holds, a platform's name holds
/// only on it, a release tag (`go1.21`) always; any other tag may be given
/// (`-tags integration`).
fn go_tag_here(tag: &str) -> Option<bool> {
    const OSES: [&str; 15] = [
        "linux",
        "darwin",
        "windows",
        "freebsd",
        "netbsd",
        "openbsd",
        "android",
        "ios",
        "js",
        "wasip1",
        "plan9",
        "solaris",
        "illumos",
        "aix",
        "dragonfly",
    ];
    const ARCHES: [&str; 12] =
        ["amd64", "arm64", "386", "arm", "riscv64", "ppc64le", "ppc64", "s390x", "wasm", "mips", "mips64", "loong64"];
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        other => other,
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        other => other,
    };
    match tag {
        "ignore" => Some(false),
        "unix" => Some(cfg!(unix)),
        t if t.starts_with("go1.") => Some(true),
        t if OSES.contains(&t) => Some(t == os),
        t if ARCHES.contains(&t) => Some(t == arch),
        _ => None,
    }
}

/// A `//go:build` expression's truth here (`||`, `&&`, `!`, brackets).
fn go_build_here(expr: &str) -> Option<bool> {
    let expr = expr.trim();
    if expr.starts_with('(') && matching(expr.as_bytes(), 0) == Some(expr.len() - 1) {
        return go_build_here(&expr[1..expr.len() - 1]);
    }
    for (op, short) in [("||", true), ("&&", false)] {
        let mut depth = 0i32;
        let bytes = expr.as_bytes();
        for i in 0..bytes.len() {
            match bytes[i] {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ if depth == 0 && expr[i..].starts_with(op) => {
                    let (l, r) = (go_build_here(&expr[..i]), go_build_here(&expr[i + 2..]));
                    return if l == Some(short) || r == Some(short) {
                        Some(short)
                    } else if l.is_some() && r.is_some() {
                        Some(!short)
                    } else {
                        None
                    };
                }
                _ => {}
            }
        }
    }
    match expr.strip_prefix('!') {
        Some(e) => go_build_here(e).map(|v| !v),
        None => go_tag_here(expr),
    }
}

/// An old `// +build` line's truth here: its space-separated terms any of
/// which may hold, each its comma-separated tags all of which must.
fn plus_build_here(terms: &str) -> Option<bool> {
    let expr: Vec<String> = terms.split_whitespace().map(|t| format!("({})", t.replace(',', "&&"))).collect();
    (!expr.is_empty()).then(|| go_build_here(&expr.join("||"))).flatten()
}

/// Python: the whole file under a module-level `pytestmark` that turns its
/// tests off, `__test__ = False` (pytest collects nothing from a module
/// or class so marked), or a skip of the module (`pytest.skip(..,
/// allow_module_level=True)`, `raise unittest.SkipTest(..)`); each `class`
/// or `def` under a decorator that turns it off, the mark itself or a name
/// bound to it at module level (`later = pytest.mark.skip(..)`, then
/// `@later`); a class holding `__test__ = False` or such a `pytestmark`
/// in its own body; and the block of an `if
/// False:` or `if 0:`, never run (test/cases/512). A condition not read,
/// a skip inside a block (`if sys.version_info < ..:`) or a name bound
/// elsewhere turns nothing off.
fn python_spans(text: &str, imports: &Imports) -> Vec<Off> {
    let lines: Vec<&str> = text.lines().collect();
    let logical = python::logical_lines(&lines);
    let statement = |k: usize| {
        let next = logical.get(k + 1).map_or(lines.len(), |l| l.line - 1);
        lines[logical[k].line - 1..next].join(" ")
    };
    let off = |k: usize| off_for_certain_here(statement(k).as_bytes(), Dialect::Python, imports);
    let whole = |switch: usize| vec![Off { switch, first: 1, last: lines.len() }];
    // Names bound at module level, so far, to a mark that turns tests off.
    let mut aliases: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for (k, l) in logical.iter().enumerate() {
        let head = l.text.trim_start();
        let code = code_of(head);
        if let Some((name, value)) = assignment(code) {
            let turns_off = (name == "__test__" && value == "False") || (name == "pytestmark" && off(k));
            if turns_off && l.indent > 0 {
                // In a class's own body, it turns off the class.
                let class = logical[..k].iter().rposition(|c| c.indent < l.indent);
                if let Some(c) = class.filter(|&c| logical[c].text.trim_start().starts_with("class ")) {
                    let first = python::decorators_above(&logical, c);
                    out.push(Off { switch: l.line, first, last: python::block_end(&logical, &lines, c) });
                }
                continue;
            }
            if name == "__test__" && value == "False" {
                return whole(l.line);
            }
            if l.indent == 0 {
                let value_off = off(k) || names_one_of(value, &aliases);
                if name == "pytestmark" && value_off {
                    return whole(l.line);
                }
                aliases.retain(|a| *a != name);
                if value_off {
                    aliases.push(name);
                }
            }
            continue;
        }
        if l.indent == 0 && skips_the_module(code) && off(k) {
            return whole(l.line);
        }
        if code == "if False:" || code == "if 0:" {
            out.push(Off { switch: l.line, first: l.line, last: python::block_end(&logical, &lines, k) });
            continue;
        }
        let def = head.strip_prefix("async ").map_or(head, str::trim_start);
        if !(def.starts_with("def ") || def.starts_with("class ")) {
            continue;
        }
        let mut j = k;
        while j > 0 && logical[j - 1].indent == l.indent && logical[j - 1].text.trim_start().starts_with('@') {
            j -= 1;
            let alias =
                code_of(logical[j].text.trim_start()).strip_prefix('@').is_some_and(|d| aliases.contains(&d.trim()));
            if alias || off(j) {
                let last = python::block_end(&logical, &lines, k);
                out.push(Off { switch: logical[j].line, first: python::decorators_above(&logical, k), last });
                break;
            }
        }
    }
    out
}

/// A Python line's code: a comment after it cut, the space around it aside
/// (strings kept as written).
fn code_of(line: &str) -> &str {
    let cut = super::disabled::mask_strings(line).find('#').unwrap_or(line.len());
    line[..cut].trim()
}

/// A plain assignment's name and value (`NAME = value`), not a comparison,
/// an augmented or annotated assignment, or an attribute's.
fn assignment(code: &str) -> Option<(&str, &str)> {
    let (name, value) = code.split_once('=')?;
    let name = name.trim_end();
    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (plain && !value.starts_with('=')).then(|| (name, value.trim()))
}

/// Whether a value names one of `names` as a whole word (`[later,
/// pytest.mark.slow]`), not as an attribute (`x.later`).
fn names_one_of(value: &str, names: &[&str]) -> bool {
    let masked = super::disabled::mask_strings(value);
    let words = masked.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'));
    words.filter(|w| !w.is_empty()).any(|w| names.contains(&w))
}

/// Whether a module-level statement skips the whole module: a skip call
/// allowed at module level, or a raised `SkipTest`. `importorskip` skips
/// only where its module is missing, so it is not one.
fn skips_the_module(code: &str) -> bool {
    let masked = super::disabled::mask_strings(code);
    let compact: String = masked.chars().filter(|c| !c.is_whitespace()).collect();
    let words = || masked.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
    let raised = masked.starts_with("raise ") && words().any(|w| w == "SkipTest");
    let skip = words().any(|w| w == "skip") && compact.contains("allow_module_level=True");
    (raised || skip) && !words().any(|w| w == "importorskip")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str, dialect: Dialect) -> Vec<(usize, usize, usize)> {
        let imports = Imports::of(text.as_bytes(), dialect);
        switched_off(text, dialect, &imports).iter().map(|o| (o.switch, o.first, o.last)).collect()
    }

    #[test]
    fn a_rust_cfg_that_never_holds_in_a_test_build_turns_off_what_it_encloses() {
        assert_eq!(spans("#![cfg(any())]\n#[test]\nfn a() {\n}\n", Dialect::Rust), [(1, 1, 4)]);
        assert_eq!(
            spans("fn x() {}\n#[cfg(any())]\nmod m {\n    #[test]\n    fn a() {}\n}\n", Dialect::Rust),
            [(2, 2, 6)]
        );
        assert_eq!(spans("#[cfg(all(test, any()))]\nmod tests {\n}\n", Dialect::Rust), [(1, 1, 3)]);
        assert_eq!(spans("#[cfg(not(test))]\nfn a() {}\n", Dialect::Rust), [(1, 1, 2)]);
        assert_eq!(spans("#[test]\n#[ignore]\nfn a() {\n}\n", Dialect::Rust), [(2, 2, 4)]);
        // What holds in a test build, or may: nothing turned off.
        for held in [
            "#![cfg(test)]\nfn a() {}\n",
            "#[cfg(test)]\nmod tests {\n}\n",
            "#[cfg(any(test, feature = \"x\"))]\nmod tests {\n}\n",
            "#[cfg(feature = \"slow\")]\nmod tests {\n}\n",
            "#[cfg_attr(any(), ignore)]\nfn a() {}\n",
            "// #[cfg(any())]\nfn a() {}\nconst S: &str = \"#[ignore]\";\n",
        ] {
            assert_eq!(spans(held, Dialect::Rust), [], "{held}");
        }
        // An attribute on a field ends with the field, not at the next
        // item's body.
        assert_eq!(
            spans("struct S {\n    #[cfg(any())]\n    h: u8,\n    k: u8\n}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {}\n}\n", Dialect::Rust),
            [(2, 2, 3)]
        );
        assert_eq!(spans("struct S {\n    #[cfg(any())]\n    h: u8\n}\nmod tests {\n}\n", Dialect::Rust), [(2, 2, 4)]);
        assert_eq!(spans("#[cfg(false)]\nmod tests {\n}\n", Dialect::Rust), [(1, 1, 3)]);
        assert_eq!(cfg_here("all(test,not(test))").0, Some(false));
        assert_eq!(cfg_here("target_os=\"plan9\"").0, Some(false));
    }

    #[test]
    fn a_go_build_constraint_that_never_holds_here_turns_off_the_file() {
        assert_eq!(spans("//go:build ignore\n\npackage p\n", Dialect::Go), [(1, 1, 3)]);
        assert_eq!(spans("// +build ignore\n\npackage p\n", Dialect::Go), [(1, 1, 3)]);
        assert_eq!(spans("//go:build plan9 && !ignore\npackage p\n", Dialect::Go), [(1, 1, 2)]);
        assert_eq!(spans("//go:build integration\npackage p\n", Dialect::Go), []);
        assert_eq!(spans("//go:build ignore || integration\npackage p\n", Dialect::Go), []);
        assert_eq!(spans("package p\n//go:build ignore\n", Dialect::Go), []);
    }

    #[test]
    fn a_python_module_mark_or_decorator_turns_off_what_it_encloses() {
        let file = "import pytest\npytestmark = pytest.mark.skip\n\ndef test_a():\n    assert 1\n";
        assert_eq!(spans(file, Dialect::Python), [(2, 1, 5)]);
        let class = "import pytest\n\n@pytest.mark.skip\nclass TestA:\n    def test_a(self):\n        assert 1\n\ndef test_b():\n    assert 1\n";
        assert_eq!(spans(class, Dialect::Python), [(3, 3, 6)]);
        let unittest = "import unittest\n\n@unittest.skip(\"later\")\ndef test_a():\n    assert 1\n";
        assert_eq!(spans(unittest, Dialect::Python), [(3, 3, 5)]);
        // A platform condition read as letting it run here, or a mark that
        // does not turn a test off: nothing turned off.
        let runs = if cfg!(target_os = "linux") { "win32" } else { "no-such-platform" };
        let cond = format!(
            "import pytest, sys\npytestmark = pytest.mark.skipif(sys.platform == \"{runs}\", reason=\"x\")\n\ndef test_a():\n    assert 1\n"
        );
        assert_eq!(spans(&cond, Dialect::Python), []);
        // A condition not read may let the tests run: nothing turned off.
        let version = "import pytest, sys\n\n@pytest.mark.skipif(sys.version_info < (3, 8), reason=\"old\")\nclass TestA:\n    def test_a(self):\n        assert 1\n";
        assert_eq!(spans(version, Dialect::Python), []);
        let always = "import pytest\n\n@pytest.mark.skipif(True, reason=\"off\")\nclass TestA:\n    def test_a(self):\n        assert 1\n";
        assert_eq!(spans(always, Dialect::Python), [(3, 3, 6)]);
        let slow = "import pytest\npytestmark = pytest.mark.slow\n\n@pytest.mark.parametrize(\"x\", [1])\ndef test_a(x):\n    assert x\n";
        assert_eq!(spans(slow, Dialect::Python), []);
    }

    #[test]
    fn a_python_module_skip_dunder_test_alias_or_if_false_turns_off_what_it_encloses() {
        let py = |t: &str| spans(t, Dialect::Python);
        let skip = "import pytest\npytest.skip(\"later\", allow_module_level=True)\n\ndef test_a():\n    assert 1\n";
        assert_eq!(py(skip), [(2, 1, 5)]);
        assert_eq!(
            py("import unittest\nraise unittest.SkipTest(\"later\")\ndef test_a():\n    assert 1\n"),
            [(2, 1, 4)]
        );
        assert_eq!(py("__test__ = False  # not yet\ndef test_a():\n    assert 1\n"), [(1, 1, 3)]);
        let class = "class TestA:\n    __test__ = False\n\n    def test_a(self):\n        assert 1\n\ndef test_b():\n    assert 1\n";
        assert_eq!(py(class), [(2, 1, 5)]);
        let mark =
            "import pytest\nclass TestA:\n    pytestmark = pytest.mark.skip\n    def test_a(self):\n        assert 1\n";
        assert_eq!(py(mark), [(3, 2, 5)]);
        let alias = "import pytest\nlater = pytest.mark.skip(reason=\"x\")\n\n@later\nclass TestA:\n    def test_a(self):\n        assert 1\n";
        assert_eq!(py(alias), [(4, 4, 7)]);
        let module = "import pytest\nlater = pytest.mark.skip\npytestmark = [later]\ndef test_a():\n    assert 1\n";
        assert_eq!(py(module), [(3, 1, 5)]);
        let never = "def test_a():\n    assert 1\n\nif False:\n    def test_b():\n        assert 1\nelse:\n    pass\n";
        assert_eq!(py(never), [(4, 4, 6)]);
        // What may run: a skip under a condition, importorskip, a name
        // rebound to a mark that does not turn tests off, `__test__` in a
        // function, a local `if` condition not read.
        for runs in [
            "import pytest, sys\nif sys.version_info < (3, 8):\n    pytest.skip(\"old\", allow_module_level=True)\ndef test_a():\n    assert 1\n",
            "import pytest\nnp = pytest.importorskip(\"numpy\")\ndef test_a():\n    assert 1\n",
            "import pytest\nlater = pytest.mark.skip\nlater = pytest.mark.slow\n@later\ndef test_a():\n    assert 1\n",
            "def helper():\n    __test__ = False\ndef test_a():\n    assert 1\n",
            "__test__ = True\ndef test_a():\n    if DEBUG:\n        assert 1\n",
            "import pytest\npytest.skip\ndef test_a():\n    assert 1\n",
        ] {
            assert_eq!(py(runs), [], "{runs}");
        }
    }
}
