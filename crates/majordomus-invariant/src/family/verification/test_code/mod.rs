//! Test code inside files that are not test paths: what `regression-tested`
//! counts when no changed path is a test by its name (`../test_path.rs`).
//!
//! Languages put tests where their tools look for them, and not every
//! language looks at file names. Idiomatic Rust writes unit tests inline, a
//! `#[cfg(test)] mod tests` at the foot of the file it tests; pytest collects
//! `def test_*` from whatever files its `python_files` names; JavaScript test
//! runners run `describe(`, `it(` and `test(` blocks in the files they
//! collect (vitest's in-source tests among them). A change counts as tested when it adds
//! or edits a line inside such a test item; what each language counts:
//!
//! - **Rust** (`.rs`): an item under `#[test]`, `#[cfg(test)]` (a predicate
//!   naming `test` outside `not(...)`), an attribute whose path ends in
//!   `::test` (`#[tokio::test]`), `#[test_case(..)]`, `#[rstest]`,
//!   `#[quickcheck]` or `#[proptest]`, from its attributes to its closing
//!   brace; a whole file declared by its parent module as `#[cfg(test)] mod
//!   NAME;`, or opening with `#![cfg(test)]` (a `cfg` predicate only where
//!   it implies `test`: `any(test, feature = "std")` compiles without it).
//! - **Python** (`.py`), by pytest's rules read from the repository's own
//!   configuration at the start commit, which the working tree's may only
//!   narrow ([`pytest`]): in a file `python_files` matches, a `def`
//!   whose name `python_functions` matches, at module level or in classes
//!   `python_classes` matches, decorators included.
//! - **JavaScript and TypeScript** (`.js`, `.jsx`, `.mjs`, `.cjs`, `.ts`,
//!   `.tsx`, `.mts`, `.cts`), in a file a runner collects though it is no
//!   test path ([`js::collected`]: vitest's in-source tests, `node --test`'s
//!   `test-*.js`): a `describe(`, `it(` or `test(` call (with `.each`,
//!   `.only`, `.skip` and the like), from its name to its closing
//!   parenthesis; a method of the same name (`re.test(s)`) is not one.
//! - **Go** needs nothing here: its tests live in `_test.go` files by the
//!   language's rule, which the path rule already names.
//!
//! What this is not: a parser. Each language is read by a small scanner that
//! knows its comments and string literals (Rust's raw strings, Python's
//! triple quotes, JavaScript's template literals and, by the usual
//! heuristic, its regular expressions) and its brackets, enough to find an
//! item's extent. A macro that writes tests (`proptest! { .. }` outside a
//! test module) or a test runner's own registration is not seen; a
//! repository that writes tests some other way says so in its policy,
//! `[tests] paths = ["glob", ...]`, and those paths count like test paths.
//!
//! Reading stays cheap: this runs only when the path rule counted nothing,
//! reads only the changed files of these languages (each at most
//! [`MAX_FILE_BYTES`]), and compares each with its blob at the start commit
//! line by line (libgit2's diff of two buffers: no attributes, no drivers).

pub mod changed;
pub mod disabled;
pub mod imports;
pub mod js;
pub mod pytest;
pub mod python;
pub mod rust;
pub mod scope;

pub use disabled::disables_a_test;
pub use imports::Imports;

/// Whether a line added inside a test item (the space around it aside)
/// writes no test there: a bare `return`, which ends the test before its
/// first line, only a comment in `language` (`// ...` or a one-line
/// `/* ... */` in Rust and JavaScript, `# ...` in Python), which asserts
/// nothing (test/cases/451), or a statement that does nothing
/// ([`a_no_op`]: `pass`, `();`; test/cases/513), or, in Rust, a `use`
/// declaration on one line, which names what a test may call and runs
/// nothing (`use super::*;` atop a module a test was moved into:
/// test/cases/525). Asked only of the test items read inside
/// other files: in a test path, a comment can be the assertion (a UI
/// test's `//~ ERROR`, a FileCheck `// CHECK:`, `// @ts-expect-error`) and
/// a golden file's `return` is expected output. A statement that is only a
/// string is [`string_statements`]'s, a comment appended to a line of code
/// [`code_of_lines`]'.
pub fn writes_no_test_in_an_item(line: &[u8], language: Option<Language>) -> bool {
    let line = line.trim_ascii();
    line == b"return"
        || line == b"return;"
        || only_a_comment(line, language)
        || a_no_op(line, language)
        || a_use(line, language)
}

/// Whether a line is a Rust `use` declaration whole (`use super::*;`,
/// `pub(crate) use a::b;`).
fn a_use(line: &[u8], language: Option<Language>) -> bool {
    let line = line.trim_ascii();
    let bare =
        ["pub(crate) ", "pub(super) ", "pub "].iter().find_map(|v| line.strip_prefix(v.as_bytes())).unwrap_or(line);
    language == Some(Language::Rust) && bare.starts_with(b"use ") && line.ends_with(b";")
}

/// Whether a line (the space around it and a comment after it aside) is a
/// statement that does nothing in `language`: Python's `pass` or `...`
/// (`Ellipsis`); in Rust and JavaScript an empty statement, a unit `()` or
/// an empty block `{}`, alone or followed by `;` (`();`, `;`, `{}`). A line
/// closing a bracket opened above (`});`) is not one: what it closes is
/// read on its own lines.
fn a_no_op(line: &[u8], language: Option<Language>) -> bool {
    let line = line.trim_ascii();
    match language {
        Some(Language::Python) => matches!(line, b"pass" | b"..." | b"Ellipsis" | b"pass;" | b"...;"),
        Some(Language::Rust | Language::Js) => {
            let mut compact: Vec<u8> = line.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect();
            if compact.is_empty() {
                return false;
            }
            while let Some(at) = compact.windows(2).position(|w| w == b"()" || w == b"{}") {
                compact.drain(at..at + 2);
            }
            compact.iter().all(|b| *b == b';')
        }
        None => false,
    }
}

/// Whether a line (the space around it aside) is only a comment in
/// `language`. A file in no language read here counts every line.
fn only_a_comment(line: &[u8], language: Option<Language>) -> bool {
    let line = line.trim_ascii();
    match language {
        Some(Language::Rust | Language::Js) => {
            line.starts_with(b"//") || (line.starts_with(b"/*") && line.ends_with(b"*/") && line.len() >= 4)
        }
        Some(Language::Python) => line.starts_with(b"#"),
        None => false,
    }
}

/// Each line of `text` as the code it holds in `language`, the space
/// around it and a comment after it taken out, so that a line is compared
/// with what the start held by what runs: `assert x  # covers the fix` is
/// the start's `assert x`, and a comment appended writes no test
/// (test/cases/510). A line only a comment is empty; a line inside a
/// string spanning lines is its text (a golden value the test asserts). A
/// file in no language read here is compared by its whole lines.
pub fn code_of_lines(text: &[u8], language: Option<Language>) -> Vec<Vec<u8>> {
    let raw = text.split(|c| *c == b'\n');
    let masked = match language {
        Some(Language::Rust) => rust::mask(text),
        Some(Language::Js) => js::mask(text),
        Some(Language::Python) => {
            return raw
                .map(|line| match std::str::from_utf8(line) {
                    Ok(l) => {
                        let cut = disabled::mask_strings(l).find('#').unwrap_or(l.len());
                        line[..cut].trim_ascii().to_vec()
                    }
                    Err(_) => line.trim_ascii().to_vec(),
                })
                .collect()
        }
        None => return raw.map(|l| l.trim_ascii().to_vec()).collect(),
    };
    raw.zip(masked.split(|c| *c == b'\n'))
        .map(|(line, code)| match code.iter().rposition(|b| !b.is_ascii_whitespace()) {
            Some(end) => line[..=end].trim_ascii().to_vec(),
            None => {
                let t = line.trim_ascii();
                let comment = t.starts_with(b"//") || t.starts_with(b"/*") || t.starts_with(b"*");
                if comment {
                    Vec::new()
                } else {
                    t.to_vec()
                }
            }
        })
        .collect()
}

/// The 1-based lines of `text` that are a statement only a string, which
/// runs and asserts nothing (test/cases/510): in Python a docstring or a
/// bare string ([`python::string_statements`]); in Rust `"words";` or a
/// doc attribute (`#[doc = "words"]`, a `///` comment spelled as one); in
/// JavaScript a string standing alone where a statement starts (after
/// `{`, `;` or `}`, not inside a call or a list).
pub fn string_statements(text: &str, language: Option<Language>) -> std::collections::BTreeSet<usize> {
    let quotes_only = |code: &str| {
        code.contains(['"', '\'', '`'])
            && code.chars().all(|c| matches!(c, '"' | '\'' | '`' | ' ' | '\t' | '#' | 'r' | 'b'))
            && code.starts_with(['"', '\'', '`', 'r', 'b'])
    };
    match language {
        Some(Language::Python) => python::string_statements(text).into_iter().collect(),
        Some(Language::Rust) => {
            let masked = rust::mask(text.as_bytes());
            let masked = String::from_utf8_lossy(&masked);
            let mut out = std::collections::BTreeSet::new();
            for (n, code) in masked.lines().enumerate() {
                let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
                let statement = code.trim().strip_suffix(';').is_some_and(|c| quotes_only(c.trim_end()));
                if statement || compact.starts_with("#[doc=") || compact.starts_with("#![doc=") {
                    out.insert(n + 1);
                }
            }
            out
        }
        Some(Language::Js) => {
            let masked = js::mask(text.as_bytes());
            let masked = String::from_utf8_lossy(&masked);
            let mut out = std::collections::BTreeSet::new();
            let mut before: Option<char> = None;
            for (n, code) in masked.lines().enumerate() {
                let code = code.trim();
                if code.is_empty() {
                    continue;
                }
                let bare = code.strip_suffix(';').unwrap_or(code).trim_end();
                if quotes_only(bare) && matches!(before, None | Some('{' | ';' | '}')) {
                    out.insert(n + 1);
                }
                before = code.chars().next_back();
            }
            out
        }
        None => std::collections::BTreeSet::new(),
    }
}

/// A file larger than this is not read for test items: it is named as not read.
pub const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// One test item of a file: the lines it spans (1-based, inclusive) and
/// what it is called, as a reader would name it (`fn parses_a_header`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestItem {
    pub first: usize,
    pub last: usize,
    pub label: String,
}

/// The languages whose test items are read, by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Rust,
    Python,
    Js,
}

impl Language {
    pub fn of(path: &str) -> Option<Self> {
        let ext = path.rsplit_once('.').map(|(_, e)| e)?;
        match ext {
            "rs" => Some(Language::Rust),
            "py" => Some(Language::Python),
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => Some(Language::Js),
            _ => None,
        }
    }
}

/// What counts as a test in a repository, one line each, for `majordomus
/// explain regression-tested`: the path rule's conventions, the policy's
/// globs, and the test items read inside other files, pytest's rules as
/// configured there.
pub fn what_counts(rules: &super::test_path::TestRules, pytest: &pytest::PytestRules) -> Vec<String> {
    let globs = match rules.globs.as_slice() {
        [] => "none declared".to_string(),
        g => g.join(", "),
    };
    vec![
        format!(
            "a test path: a changed path under a directory named {} (in any case), or a test project's, NAME.{}, \
             or a file named {} (Go's *_test.go among them)",
            super::test_path::DIRS.join(", "),
            super::test_path::PROJECT_SUFFIXES.join("|"),
            super::test_path::NAMES.join(", ")
        ),
        format!("a path the policy's [tests] paths match: {globs}"),
        "when no test path still there changed, a line added or edited inside a test item of another changed file:"
            .to_string(),
        "  Rust (.rs): an item under #[test], #[cfg(test)], #[tokio::test] and other #[...::test], #[test_case], \
         #[rstest], #[quickcheck] or #[proptest]; all of a file its parent declares as #[cfg(test)] mod NAME; \
         or that opens with #![cfg(test)]"
            .to_string(),
        format!(
            "  Python (.py), by pytest's rules ({}): in files matching {}, functions matching {} at module level \
             or in classes matching {}",
            pytest.described(),
            pytest.files.join(" "),
            pytest.functions.join(" "),
            pytest.classes.join(" ")
        ),
        "  JavaScript and TypeScript (.js .jsx .mjs .cjs .ts .tsx .mts .cts): describe(, it( and test( blocks \
         (with .each, .only, .skip ...), in a file guarded by import.meta.vitest (in-source tests) or named as \
         node --test collects it (test.js, test-*.js, *-test.js)"
            .to_string(),
        format!("  declared by the policy's [tests] items, in any language: {}", declared_items(rules)),
        "a deleted test does not count, nor a symbolic link (what it leads to counts at its own path, where that is \
         a test path) or a submodule or repository of its own under a test path; a file already changed at the \
         start is not read for test items"
            .to_string(),
    ]
}

/// The policy's `[tests] items` in words, for [`what_counts`].
fn declared_items(rules: &super::test_path::TestRules) -> String {
    if rules.items.is_empty() {
        return "none declared".to_string();
    }
    let each: Vec<String> =
        rules.items.iter().map(|i| format!("a line holding `{}` in {}", i.marker, i.paths.join(", "))).collect();
    format!("{} (outside a comment or a #if 0 block)", each.join("; "))
}

/// The smallest item holding `line`, if any: the one a reader would name.
pub fn innermost(items: &[TestItem], line: usize) -> Option<&TestItem> {
    items.iter().filter(|i| i.first <= line && line <= i.last).min_by_key(|i| i.last - i.first)
}

/// The items holding any of `lines`, each once, in order.
pub fn touched<'a>(items: &'a [TestItem], lines: &[usize]) -> Vec<&'a TestItem> {
    let mut out: Vec<&TestItem> = Vec::new();
    for &l in lines {
        if let Some(item) = innermost(items, l) {
            if !out.iter().any(|o| std::ptr::eq(*o, item)) {
                out.push(item);
            }
        }
    }
    out
}

/// The lines (1-based) of `lines` that only wrap other test items: of
/// an item holding another (a `#[cfg(test)] mod tests`, a `describe(`, a
/// test class), those it is the innermost item of that open it, from its
/// first line (its attributes) to the first that opens its body (holding
/// `{`, or ending with `:`) before the first item it holds, and its last
/// line where that only closes brackets. A test moved into a new module
/// is not written by the module's head and foot (test/cases/525); what
/// a module holds besides its tests (a helper, a fixture) is read as
/// ever, and a module holding no test item wraps none.
pub fn wrapping(items: &[TestItem], lines: &[&str]) -> std::collections::BTreeSet<usize> {
    let mut out = std::collections::BTreeSet::new();
    for (i, outer) in items.iter().enumerate() {
        let held = items
            .iter()
            .enumerate()
            .filter(|(j, inner)| *j != i && outer.first <= inner.first && inner.last <= outer.last)
            .map(|(_, inner)| inner.first)
            .min();
        let Some(first_held) = held else { continue };
        let own = |n: usize| innermost(items, n).is_some_and(|m| std::ptr::eq(m, outer));
        let text = |n: usize| lines.get(n - 1).map_or("", |l| l.trim());
        for n in outer.first..first_held {
            if own(n) {
                out.insert(n);
            }
            if text(n).contains('{') || text(n).ends_with(':') {
                break;
            }
        }
        let closes =
            |l: &str| !l.is_empty() && l.chars().all(|c| matches!(c, '}' | ')' | ']' | ';' | ',' | ' ' | '\t'));
        if own(outer.last) && closes(text(outer.last)) {
            out.insert(outer.last);
        }
    }
    out
}

/// The 1-based line of byte offset `at` in `text`.
pub(crate) fn line_of(text: &[u8], at: usize) -> usize {
    text[..at.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Whether `b` may be part of an identifier (ASCII; a non-ASCII byte is
/// taken as one, as both languages allow Unicode identifiers).
pub(crate) fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// From the opening bracket at `open` in masked code, the offset of its
/// closing partner, counting `(`, `[` and `{` alike.
pub(crate) fn matching(code: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in code.iter().enumerate().skip(open) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_innermost_item_names_a_line_and_each_item_is_named_once() {
        let items = vec![
            TestItem { first: 1, last: 20, label: "mod tests".into() },
            TestItem { first: 3, last: 5, label: "fn a".into() },
        ];
        assert_eq!(innermost(&items, 4).map(|i| i.label.as_str()), Some("fn a"));
        assert_eq!(innermost(&items, 10).map(|i| i.label.as_str()), Some("mod tests"));
        assert_eq!(innermost(&items, 21), None);
        let t: Vec<&str> = touched(&items, &[3, 4, 9, 12]).iter().map(|i| i.label.as_str()).collect();
        assert_eq!(t, ["fn a", "mod tests"]);
    }

    #[test]
    fn a_modules_head_and_foot_wrap_the_tests_it_holds_and_what_else_it_holds_does_not() {
        let text = "#[cfg(test)]\nmod tests {\n    fn helper() -> u8 { 1 }\n    #[test]\n    fn a() {\n        assert!(true);\n    }\n}\n";
        let lines: Vec<&str> = text.split('\n').collect();
        let items = vec![
            TestItem { first: 1, last: 8, label: "mod tests".into() },
            TestItem { first: 4, last: 7, label: "fn a".into() },
        ];
        assert_eq!(wrapping(&items, &lines).into_iter().collect::<Vec<_>>(), [1, 2, 8]);
        // A module holding no test item wraps none: it is read as ever.
        assert!(wrapping(&items[..1], &lines).is_empty());
        let py = "class TestA:\n    def test_a(self):\n        assert 1\n";
        let lines: Vec<&str> = py.split('\n').collect();
        let items = vec![
            TestItem { first: 1, last: 3, label: "class TestA".into() },
            TestItem { first: 2, last: 3, label: "def test_a".into() },
        ];
        assert_eq!(wrapping(&items, &lines).into_iter().collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn a_statement_that_does_nothing_or_only_strings_writes_no_test() {
        let py = Some(Language::Python);
        let strings = |t: &str| string_statements(t, py).into_iter().collect::<Vec<usize>>();
        let body = |line: &str| format!("def test_a():\n    {line}\n    assert add(1, 1) == 2\n");
        for inert in ["f\"covers the fix\"", "(\"covers the fix\")", "(\"a\", 'b')", "f'{{not}} one'", "rb'x'  # x"] {
            assert_eq!(strings(&body(inert)), [2], "{inert}");
        }
        assert_eq!(strings("def test_a():\n    (\"covers\"\n     \"the fix\")\n"), [2, 3]);
        // Code: a placeholder evaluates what it names, a call, an assert.
        for code in ["f\"{check()}\"", "f(\"x\")", "assert (\"a\", \"b\")", "assert f\"{x}\" == \"1\"", "(\"a\") + b"] {
            assert!(strings(&body(code)).is_empty(), "{code}");
        }
        let rs = Some(Language::Rust);
        for (line, language) in
            [("pass", py), ("...", py), ("();", rs), (";", rs), ("{}", rs), ("(());", rs), ("use super::*;", rs)]
        {
            assert!(writes_no_test_in_an_item(line.as_bytes(), language), "{line}");
        }
        for (line, language) in [("passed = 1", py), ("});", rs), ("f();", rs), ("assert!(x);", rs), ("user();", rs)] {
            assert!(!writes_no_test_in_an_item(line.as_bytes(), language), "{line}");
        }
    }

    #[test]
    fn languages_are_known_by_their_extensions() {
        assert_eq!(Language::of("src/lib.rs"), Some(Language::Rust));
        assert_eq!(Language::of("pkg/util.py"), Some(Language::Python));
        assert_eq!(Language::of("web/a.tsx"), Some(Language::Js));
        assert_eq!(Language::of("main.go"), None);
        assert_eq!(Language::of("Makefile"), None);
    }
}
