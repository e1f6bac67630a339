//! Lines that only turn a test off: read by what the line does in each
//! runner's own vocabulary, not by a list of whole prefixes, so that every
//! spelling of one form (`it.skip(`, `it.skipIf(cond)(`, `describe.todo(`,
//! `test.concurrent.skip(`) is one rule.
//!
//! A line turns a test off (or only narrows where it runs, which adds no
//! test either) when it holds, its string literals aside:
//!
//! - a call, decorator or mark reached from a runner's own name (`it`,
//!   `test`, `describe`, `context`, `specify`, `suite`, `t`, `this`,
//!   `self`, `pytest`, `unittest`, `mark`, `Deno`) through a name that
//!   skips, expects a failure, leaves a to-do or focuses another test
//!   ([`OFF`]: `skip`, `skipIf`, `runIf`, `todo`, `only`, `xfail`,
//!   `fails`, `failing`, `fixme`, `ignore`, ...), anywhere in the line: so
//!   `@pytest.mark.skip`, `pytestmark = pytest.mark.skip`, `marks=
//!   pytest.mark.xfail`, `if cond: pytest.skip()`, `this.skip()`,
//!   `t.todo()`, `describe.skipIf(c)(`. `.only` and focus (`fit`,
//!   `fdescribe`) are here because they turn every other test of the file
//!   off;
//! - Go's `Skip`, `SkipNow` and `Skipf` and unittest's `SkipTest` and
//!   `skipTest`, on whatever receiver (`tt.Skip()`, `raise nose.SkipTest`);
//! - at the line's start (after `@`, `raise`, `await` or `return`), a bare
//!   name that does it ([`BARE`]): Mocha's, Jasmine's, Jest's and RSpec's
//!   `xit`, `xdescribe`, `xcontext`, `fit`, `fdescribe`, RSpec's and
//!   minitest's `skip` and `pending`, Jasmine's `pending()`, pytest's
//!   `skip(`, `xfail(` imported bare, unittest's `@skipIf(`;
//! - a runner's call whose options turn it off: node:test's `{ skip: true
//!   }` and `{ todo: .. }`, Deno's `{ ignore: true }`, RSpec's `skip:
//!   "why"`, `:skip` or `:pending` metadata;
//! - in Rust, an attribute `#[ignore]`, `#[cfg_attr(P, ignore)]`, or a
//!   `#[cfg(..)]`/`#![cfg(..)]` (a `cfg` only ever takes an item or a whole
//!   file out of a build: `#![cfg(any())]` compiles none of it);
//! - in Go, a build constraint (`//go:build ignore`, `// +build ignore`),
//!   which likewise only takes a file out of `go test`.
//!
//! What is not read: an option object spread over lines (`test("x", {` then
//! `skip: true,`), and a name the runner would not collect (a test renamed
//! `_test_add`); both are written here as what they are not.

/// The names that, reached from a runner's name, turn a test off.
const OFF: [&str; 19] = [
    "skip",
    "skipIf",
    "skipif",
    "skipUnless",
    "runIf",
    "todo",
    "only",
    "fixme",
    "fails",
    "failing",
    "xfail",
    "importorskip",
    "skipTest",
    "SkipTest",
    "expectedFailure",
    "Skip",
    "SkipNow",
    "Skipf",
    "ignore",
];

/// The names test runners and their tests are reached from.
const RUNNERS: [&str; 13] = [
    "it", "test", "describe", "context", "specify", "suite", "t", "this", "self", "pytest", "unittest", "mark", "Deno",
];

/// The names that turn a test off on any receiver: Go's `testing.TB`
/// methods and unittest's skip exception, whose names nothing else uses.
const ANY_RECEIVER: [&str; 5] = ["Skip", "SkipNow", "Skipf", "SkipTest", "skipTest"];

/// The bare names that turn a test off where a line starts with them.
const BARE: [&str; 26] = [
    "xit",
    "xtest",
    "xdescribe",
    "xcontext",
    "xspecify",
    "xexample",
    "xscenario",
    "xfeature",
    "xsuite",
    "fit",
    "fdescribe",
    "fcontext",
    "fspecify",
    "fexample",
    "fscenario",
    "ffeature",
    "skip",
    "pending",
    "xfail",
    "importorskip",
    "skipIf",
    "skipif",
    "skipUnless",
    "expectedFailure",
    "SkipTest",
    "skipTest",
];

/// The option keys (node:test, Deno, RSpec metadata) that turn a test
/// off unless given `false`.
const OPTIONS: [&str; 5] = ["skip", "todo", "ignore", "pending", "only"];

/// Whether a line (the space around it aside) only turns a test off, or
/// only narrows where it runs: such a line adds no test (test/cases/436,
/// 451, 480). Read in any language, as a test path can be in any.
pub fn disables_a_test(line: &[u8]) -> bool {
    let Ok(line) = std::str::from_utf8(line.trim_ascii()) else { return false };
    build_constraint(line) || rust_attribute(line) || {
        let code = mask(line);
        bare_start(&code) || reached_from_a_runner(&code) || options_turn_off(&code)
    }
}

/// Go's build constraint lines, which only take a file out of a build.
fn build_constraint(line: &str) -> bool {
    line.starts_with("//go:build") || line.starts_with("// +build")
}

/// A Rust attribute that only takes a test out of a run: `ignore`, a
/// `cfg_attr` that applies `ignore`, or a `cfg`, outer or inner.
fn rust_attribute(line: &str) -> bool {
    let Some(attr) = line.strip_prefix("#![").or_else(|| line.strip_prefix("#[")) else { return false };
    let compact: String = attr.chars().filter(|c| !c.is_whitespace()).collect();
    let path: String = compact.chars().take_while(|&c| ident_char(c) || c == ':').collect();
    match path.as_str() {
        "ignore" | "cfg" => true,
        "cfg_attr" => compact.split(|c: char| !ident_char(c)).skip(2).any(|w| w == "ignore"),
        _ => false,
    }
}

/// A bare name of [`BARE`] opening the line (after `@`, `raise`, `await`
/// or `return`), followed by what a call or a block is (its arguments,
/// a string, a block, or nothing), not by an assignment or an operator.
fn bare_start(code: &str) -> bool {
    let mut rest = code.strip_prefix('@').unwrap_or(code);
    for word in ["raise ", "await ", "return "] {
        if let Some(r) = rest.strip_prefix(word) {
            rest = r.trim_start();
        }
    }
    let name: String = rest.chars().take_while(|&c| ident_char(c)).collect();
    if !BARE.contains(&name.as_str()) {
        return false;
    }
    let after = rest[name.len()..].trim_start();
    match after.chars().next() {
        None => true,
        Some(c) => c == '(' || c == '"' || c == '\'' || c == '`' || c == '{' || c == ':' || ident_char(c),
    }
}

/// Whether any dotted path in the line, starting at a name (not after a
/// dot), is a runner's name reaching one of [`OFF`], or ends in one of
/// [`ANY_RECEIVER`]. A call between the names (`it.skipIf(cond).each`) is
/// stepped over.
fn reached_from_a_runner(code: &str) -> bool {
    paths(code).iter().any(|path| {
        let runner = path.first().is_some_and(|r| RUNNERS.contains(r));
        (runner && path[1..].iter().any(|n| OFF.contains(n)))
            || (path.len() > 1 && path.last().is_some_and(|n| ANY_RECEIVER.contains(n)))
    })
}

/// Whether a line opening with a runner's call gives it an option that
/// turns it off: `skip:`, `todo:`, `ignore:`, `pending:` or `only:` not set
/// to `false`, or RSpec's `:skip`/`:pending` metadata.
fn options_turn_off(code: &str) -> bool {
    let opens_a_test = paths(code).first().and_then(|p| p.first()).is_some_and(|r| {
        code.trim_start().starts_with(r)
            && matches!(*r, "it" | "test" | "describe" | "context" | "specify" | "suite" | "Deno")
    });
    if !opens_a_test {
        return false;
    }
    let words = words(code);
    words.iter().any(|&(at, w)| {
        if !OPTIONS.contains(&w) {
            return false;
        }
        let before = code[..at].chars().next_back();
        let after = code[at + w.len()..].trim_start();
        let symbol = before == Some(':') && matches!(w, "skip" | "pending");
        let key = before != Some('.') && before != Some(':') && after.starts_with(':') && !after.starts_with("::");
        let value = after.trim_start_matches(':').trim_start();
        symbol || (key && !value.starts_with("false"))
    })
}

/// The dotted paths of the line, each as its names, beginning at a name
/// not itself reached through a dot. A bracketed group after a name
/// (`skipIf(cond)`) is stepped over when a dot follows it.
fn paths(code: &str) -> Vec<Vec<&str>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for &(at, first) in &words(code) {
        let before = code[..at].trim_end().chars().next_back();
        if before == Some('.') {
            continue;
        }
        let mut path = vec![first];
        let mut i = at + first.len();
        loop {
            if bytes.get(i) == Some(&b'(') {
                match close_of(bytes, i) {
                    Some(close) if bytes.get(close + 1) == Some(&b'.') => i = close + 1,
                    _ => break,
                }
            }
            let step = if code[i..].starts_with("::") {
                2
            } else if code[i..].starts_with('.') {
                1
            } else {
                break;
            };
            let name: &str = word_at(code, i + step);
            if name.is_empty() {
                break;
            }
            path.push(name);
            i += step + name.len();
        }
        out.push(path);
    }
    out
}

/// The names of the line (identifiers not starting with a digit), each
/// with its offset.
fn words(code: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let c = code[i..].chars().next().unwrap_or(' ');
        if ident_char(c) && !c.is_ascii_digit() && (i == 0 || !code[..i].chars().next_back().is_some_and(ident_char)) {
            let w = word_at(code, i);
            out.push((i, w));
            i += w.len();
        } else {
            i += c.len_utf8();
        }
    }
    out
}

/// The name starting at `at` (empty where none does).
fn word_at(code: &str, at: usize) -> &str {
    let rest = code.get(at..).unwrap_or("");
    let len: usize = rest.chars().take_while(|&c| ident_char(c)).map(char::len_utf8).sum();
    &rest[..len]
}

/// The offset of the bracket closing the one at `open`, within the line.
fn close_of(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
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

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The line with the insides of its string literals (`"..."`, `'...'`,
/// `` `...` ``) made blanks, so a test's name (`it("a skip: case")`) is
/// not read as code. A quote left open blanks the rest of the line.
fn mask(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                    out.push(' ');
                } else if c == '\\' {
                    escaped = true;
                    out.push(' ');
                } else if c == q {
                    quote = None;
                    out.push(c);
                } else {
                    out.push(' ');
                }
            }
            None => {
                if matches!(c, '"' | '\'' | '`') {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::disables_a_test;

    fn off(line: &str) -> bool {
        disables_a_test(line.as_bytes())
    }

    #[test]
    fn every_runners_form_of_a_test_turned_off_is_read() {
        for line in [
            // Rust.
            "#[ignore]",
            "#[ignore = \"slow\"]",
            "#[cfg(any())]",
            "#![cfg(any())]",
            "#![cfg(not(test))]",
            "#[cfg_attr(miri, ignore)]",
            // Go.
            "t.Skip(\"flaky\")",
            "t.SkipNow()",
            "t.Skipf(\"later: %d\", n)",
            "tt.Skip()",
            "if testing.Short() { t.Skip(\"short\") }",
            "//go:build ignore",
            "// +build ignore",
            // Python: unittest and pytest.
            "@unittest.skip(\"flaky\")",
            "@unittest.skipIf(sys.platform == \"win32\", \"x\")",
            "@unittest.expectedFailure",
            "@skipUnless(HAVE_DB, \"no db\")",
            "@pytest.mark.skip",
            "@pytest.mark.skipif(True, reason=\"x\")",
            "@pytest.mark.xfail(strict=False)",
            "@mark.skip",
            "pytestmark = pytest.mark.skip",
            "pytestmark = [pytest.mark.slow, pytest.mark.xfail]",
            "pytest.param(3, marks=pytest.mark.xfail),",
            "pytest.xfail(\"later\")",
            "pytest.skip(\"later\")",
            "pytest.importorskip(\"numpy\")",
            "skip(\"imported bare\")",
            "xfail(\"imported bare\")",
            "self.skipTest(\"x\")",
            "raise unittest.SkipTest(\"x\")",
            "raise SkipTest",
            "raise pytest.skip.Exception(\"x\")",
            "if sys.platform == \"win32\": pytest.skip(\"x\")",
            // JavaScript runners.
            "it.skip(\"adds\", () => {",
            "it.skipIf(true)(\"adds\", () => {",
            "it.runIf(false)(\"adds\", () => {",
            "describe.skipIf(process.env.CI)(\"calc\", () => {",
            "test.concurrent.skip(\"adds\", async () => {",
            "test.skip.each([1, 2])(\"adds %i\", (n) => {",
            "it.todo(\"adds\")",
            "test.todo(\"adds\");",
            "describe.todo(\"calc\")",
            "it.fails(\"adds\", () => {",
            "test.failing(\"adds\", () => {",
            "it.only(\"adds\", () => {",
            "describe.only(\"calc\", () => {",
            "xit(\"adds\", () => {",
            "xdescribe(\"calc\", () => {",
            "xcontext(\"calc\", () => {",
            "fit(\"adds\", () => {",
            "fdescribe(\"calc\", () => {",
            "this.skip();",
            "if (!process.env.DB) this.skip();",
            "t.skip(\"later\");",
            "t.todo();",
            "pending();",
            "test(\"adds\", { skip: true }, () => {",
            "it(\"adds\", { todo: \"later\" }, () => {",
            "Deno.test({ name: \"adds\", ignore: true, fn() {",
            "Deno.test.ignore(\"adds\", () => {",
            // RSpec and minitest.
            "xit \"adds\" do",
            "xdescribe Calc do",
            "xcontext \"when empty\" do",
            "it \"adds\", skip: true do",
            "it \"adds\", :pending do",
            "skip \"flaky\"",
            "skip",
            "pending \"later\"",
            "skip \"on windows\" if Gem.win_platform?",
        ] {
            assert!(off(line), "{line}");
        }
    }

    #[test]
    fn a_line_that_tests_or_only_names_these_words_is_not_read_as_one() {
        for line in [
            "it(\"adds\", () => {",
            "it(\"a skip: case\", () => {",
            "test(\"only the first\", () => {",
            "describe.each([1, 2])(\"calc %i\", (n) => {",
            "test(\"adds\", { skip: false }, () => {",
            "expect(add(1, 2)).toBe(3);",
            "assert add(1, 2) == 3",
            "self.assertEqual(add(1, 2), 3)",
            "skip = 3",
            "let rest: Vec<_> = v.iter().skip(1).collect();",
            "reader.skip(4)",
            "assert_eq!(add(1, 2), 3);",
            "#[test]",
            "#[cfg_attr(miri, should_panic)]",
            "#[should_panic]",
            "@pytest.mark.parametrize(\"n\", [1, 2])",
            "if got != want { t.Fatalf(\"got %d\", got) }",
            "if t.Skipped() { return }",
            "model.fit(x, y)",
            "expect(page.getByText('skip')).toBeVisible()",
            "// covers the skip",
            "def test_skip_is_read():",
        ] {
            assert!(!off(line), "{line}");
        }
    }
}
