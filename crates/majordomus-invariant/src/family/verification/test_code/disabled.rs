//! Lines that only turn a test off: read by what the line does in its
//! file's language, in each runner's own words, not by a list of whole
//! prefixes, so that every spelling of one form (`it.skip(`,
//! `it.skipIf(cond)(`, `describe.todo(`, `test.concurrent.skip(`) is one
//! rule, and a line that only holds the words (`t.iter().skip(1)`, a
//! function's `{ only: [..] }` argument) is not one.
//!
//! A line turns a test off (or only narrows where it runs, which adds no
//! test either) when it holds, its string literals aside:
//!
//! - a runner's own name (JavaScript's `it`, `test`, `describe`,
//!   `context`, `specify`, `suite`, `Deno`; Python's `pytest`, `unittest`,
//!   `mark`) reaching a name that skips, expects a failure, leaves a to-do
//!   or focuses another test ([`OFF`]: `skip`, `skipIf`, `runIf`, `todo`,
//!   `only`, `xfail`, `fails`, `failing`, `fixme`, `ignore`, ...) directly
//!   or through the runner's own names only ([`THROUGH`]: `pytest.mark.skip`,
//!   `test.concurrent.skip`, `test.describe.only`), never through another
//!   name or a call (`expect(x).only`, `t.iter().skip(1)`): so
//!   `@pytest.mark.skip`, `pytestmark = pytest.mark.skip`, `marks=
//!   pytest.mark.xfail`, `if cond: pytest.skip()`, `describe.skipIf(c)(`.
//!   `.only` and focus (`fit`, `fdescribe`) are here because they turn
//!   every other test of the file off. A runner's name is its own or one
//!   the file's imports bind to it ([`Imports`]: `import pytest as pt`
//!   then `@pt.mark.skip`, `import { it as check }` then `check.skip(`,
//!   `import * as T` then `T.it.skip(`), and a bare name of the next item
//!   likewise (`from unittest import skip as later`; test/cases/491);
//! - a runner's parametrize or each given an empty list of parameters
//!   (`@pytest.mark.parametrize("x", [])`, which pytest skips, "got empty
//!   parameter set"; `test.each([])`, which declares no test), read on the
//!   line that opens it;
//! - a test's own handle skipping it: node:test's `t.skip(`/`t.todo(`,
//!   Mocha's `this.skip(` in JavaScript, unittest's `self.skipTest(` in
//!   Python; Go's `Skip(`, `SkipNow(` and `Skipf(` on whatever receiver in
//!   Go (`tt.Skip()`), unittest's `SkipTest` on any in Python (`raise
//!   nose.SkipTest`);
//! - at the line's start (after `@`, `raise`, `await` or `return`), a bare
//!   name that does it in the language ([`bare`]): Mocha's, Jasmine's and
//!   Jest's `xit`, `xdescribe`, `fit`, `fdescribe`, Jasmine's `pending()`;
//!   RSpec's and minitest's `xit`, `skip`, `pending`; pytest's `skip(`,
//!   `xfail(` imported bare, unittest's `@skipIf(`;
//! - the options of the test call the line opens, and only those (the
//!   argument after its name, or its first when that is an object):
//!   node:test's `{ skip: true }`, `{ todo: .. }`, `{ only: .. }`, Deno's
//!   `{ ignore: true }`; RSpec's `skip: "why"` or `:skip`/`:pending`
//!   metadata;
//! - in Rust, an attribute `#[ignore]`, `#[cfg_attr(P, ignore)]`, or a
//!   `#[cfg(..)]`/`#![cfg(..)]` (a `cfg` only ever takes an item or a whole
//!   file out of a build: `#![cfg(any())]` compiles none of it);
//! - in Go, a build constraint (`//go:build ignore`, `// +build ignore`),
//!   which likewise only takes a file out of `go test`.
//!
//! A file in no language read here (a test path's `.t`, `.sh`) is read in
//! every one of them.
//!
//! A conditional skip (`skipIf(COND)`, `skipif(COND, ..)`, `runIf(COND)`,
//! `{ skip: COND }`) turns a test off unless COND is read as not holding
//! where the check runs ([`truth_here`]): a literal (`false`, `0`), or a
//! comparison of the platform (`sys.platform`, `os.name`,
//! `platform.system()`, `process.platform`) with a string. A condition not
//! read so (`process.env.CI`, `sys.version_info < (3, 8)`) may hold, and is
//! taken as holding, the side on which a pass stays believable. Only a line
//! that declares the test or the case it marks is read so (a test call
//! `it.skipIf(COND)("x", ..)`, `it("x", { skip: COND }, ..)`, or a
//! `pytest.param(.., marks=pytest.mark.skipif(COND, ..))`): a line that is
//! only the mark (`@pytest.mark.skipif(..)`) adds no test whatever COND.
//!
//! What is not read: an option object spread over lines (`test("x", {` then
//! `skip: true,`), and a name the runner would not collect (a test renamed
//! `_test_add`); both are written here as what they are not.

use super::imports::{Bound, Imports};
use super::matching;

/// The language a line is read in, by its file's extension: each runner's
/// words are its own language's, so `t.skip(1)` is an iterator's in Rust
/// and node:test's skip in JavaScript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Rust,
    Go,
    Python,
    Js,
    Ruby,
    /// A file in no language read here: read in every one.
    Any,
}

impl Dialect {
    /// The dialect of the file at `path`, by its extension.
    pub fn of(path: &str) -> Self {
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "rs" => Dialect::Rust,
            "go" => Dialect::Go,
            "py" | "pyi" => Dialect::Python,
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => Dialect::Js,
            "rb" => Dialect::Ruby,
            _ => Dialect::Any,
        }
    }

    /// Whether a line of this dialect is read in `other`'s words.
    fn reads(self, other: Dialect) -> bool {
        self == other || self == Dialect::Any
    }
}

impl From<Option<super::Language>> for Dialect {
    fn from(language: Option<super::Language>) -> Self {
        match language {
            Some(super::Language::Rust) => Dialect::Rust,
            Some(super::Language::Python) => Dialect::Python,
            Some(super::Language::Js) => Dialect::Js,
            None => Dialect::Any,
        }
    }
}

/// The names that, reached from a runner's name, turn a test off.
const OFF: [&str; 15] = [
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
    "SkipTest",
    "expectedFailure",
    "ignore",
];

/// Of [`OFF`], those that take a condition as their first argument, and
/// whether the test runs when it holds (`runIf`, `skipUnless`) or when it
/// does not.
const CONDITIONAL: [(&str, bool); 5] =
    [("skipIf", false), ("skipif", false), ("xfail", false), ("runIf", true), ("skipUnless", true)];

/// JavaScript runners' names, from which a test is declared or turned off.
const JS_RUNNERS: [&str; 7] = ["it", "test", "describe", "context", "specify", "suite", "Deno"];

/// Python runners' names, from which a test is marked or skipped.
const PY_RUNNERS: [&str; 3] = ["pytest", "unittest", "mark"];

/// The runners' own names between a runner and its skip:
/// `pytest.mark.skip`, `test.concurrent.skip`, `test.describe.only`,
/// `Deno.test.ignore`, `unittest.case.SkipTest`.
const THROUGH: [&str; 8] = ["mark", "concurrent", "sequential", "serial", "parallel", "describe", "test", "case"];

/// A test's own handle inside its body, the language it is one in, and
/// what it calls to skip itself.
const HANDLES: [(&str, Dialect, &[&str]); 3] =
    [("t", Dialect::Js, &["skip", "todo"]), ("this", Dialect::Js, &["skip"]), ("self", Dialect::Python, &["skipTest"])];

/// Go's `testing.TB` methods that skip, called on whatever receiver.
const GO_SKIPS: [&str; 3] = ["Skip", "SkipNow", "Skipf"];

/// The option keys (node:test, Deno) that turn a test off unless given a
/// value read as false.
const JS_OPTIONS: [&str; 4] = ["skip", "todo", "ignore", "only"];

/// RSpec's names that open an example or a group.
const RSPEC: [&str; 7] = ["it", "specify", "example", "scenario", "describe", "context", "feature"];

/// Whether a line (the space around it aside) of a file in `dialect`,
/// whose imports bind `imports`, only turns a test off, or only narrows
/// where it runs: such a line adds no test (test/cases/436, 451, 480, 489,
/// 491).
pub fn disables_a_test(line: &[u8], dialect: Dialect, imports: &Imports) -> bool {
    let Ok(line) = std::str::from_utf8(line.trim_ascii()) else { return false };
    (dialect.reads(Dialect::Go) && build_constraint(line))
        || (dialect.reads(Dialect::Rust) && rust_attribute(line))
        || {
            let code = mask(line);
            bare_start(&code, dialect, imports)
                || reached_from_a_runner(&code, line, dialect, imports)
                || (dialect.reads(Dialect::Js) && js_options_turn_off(&code, line, imports))
                || (dialect.reads(Dialect::Ruby) && rspec_options_turn_off(&code, line))
        }
}

/// Whether a line takes what it encloses out of a run here for certain: it
/// turns a test off ([`disables_a_test`]) with no condition, or with one
/// read as keeping it off here (`skipif(True, ..)`, a platform comparison
/// that holds). A condition not read (`skipif(sys.version_info < (3, 8),
/// ..)`, `skipif(not HAS_NUMPY, ..)`) may let the tests run, so over a
/// class or a module it turns nothing off: an honest test added to a
/// version-gated class counts (test/cases/509).
pub fn off_for_certain_here(line: &[u8], dialect: Dialect, imports: &Imports) -> bool {
    if !disables_a_test(line, dialect, imports) {
        return false;
    }
    let conditions = conditions_here(line);
    conditions.is_empty() || conditions.contains(&Some(false))
}

/// Each conditional mark's condition on the line, read as whether its test
/// runs here (`None`: not read).
fn conditions_here(line: &[u8]) -> Vec<Option<bool>> {
    let Ok(raw) = std::str::from_utf8(line.trim_ascii()) else { return Vec::new() };
    let code = mask(raw);
    let mut out = Vec::new();
    for &(name, runs_if_it_holds) in &CONDITIONAL {
        for (at, _) in code.match_indices(name) {
            let open = at + name.len();
            let starts_a_word = at == 0 || !code[..at].chars().next_back().is_some_and(ident_char);
            if !starts_a_word || code.as_bytes().get(open) != Some(&b'(') {
                continue;
            }
            let Some(&(from, to)) = arguments(&code, open).first() else {
                out.push(None);
                continue;
            };
            let keyword = word_at(&code, from).len();
            let rest = code[from + keyword..to].trim_start();
            if keyword > 0 && rest.starts_with('=') && !rest.starts_with("==") {
                out.push(None);
                continue;
            }
            out.push(truth_here(&code[from..to], &raw[from..to], false).map(|holds| holds == runs_if_it_holds));
        }
    }
    out
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

/// The bare names that turn a test off where a line of `dialect` starts
/// with them.
fn bare(name: &str, dialect: Dialect) -> bool {
    const FOCUS_AND_X: [&str; 16] = [
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
    ];
    const PYTHON: [&str; 9] =
        ["skip", "xfail", "importorskip", "skipIf", "skipif", "skipUnless", "expectedFailure", "SkipTest", "skipTest"];
    (dialect.reads(Dialect::Js) && (FOCUS_AND_X.contains(&name) || name == "pending"))
        || (dialect.reads(Dialect::Ruby) && (FOCUS_AND_X.contains(&name) || name == "skip" || name == "pending"))
        || (dialect.reads(Dialect::Python) && PYTHON.contains(&name))
}

/// A bare name of [`bare`] opening the line (after `@`, `raise`, `await`
/// or `return`), followed by what a call or a block is (its arguments,
/// a string, a block, or nothing), not by an assignment or an operator.
fn bare_start(code: &str, dialect: Dialect, imports: &Imports) -> bool {
    let mut rest = code.strip_prefix('@').unwrap_or(code);
    for word in ["raise ", "await ", "return "] {
        if let Some(r) = rest.strip_prefix(word) {
            rest = r.trim_start();
        }
    }
    let name = word_at(rest, 0);
    if !bare(name, dialect) && !bare(imports.resolve(name), dialect) {
        return false;
    }
    let after = rest[name.len()..].trim_start();
    match after.chars().next() {
        None => true,
        Some(c) => c == '(' || c == '"' || c == '\'' || c == '`' || c == '{' || c == ':' || ident_char(c),
    }
}

/// Whether a dotted path of the line, starting at a name (not after a
/// dot), is a runner's name reaching one of [`OFF`] through [`THROUGH`]
/// only, a test's handle calling its skip ([`HANDLES`]), Go's skip called
/// on any receiver, or Python's `SkipTest` on any. A conditional one on a
/// line that declares its test or case is read by its condition
/// ([`declared_and_runs_here`]).
fn reached_from_a_runner(code: &str, raw: &str, dialect: Dialect, imports: &Imports) -> bool {
    paths(code).iter().any(|path| {
        let (_, first) = path[0];
        let calls = |at: usize, name: &str| code[at + name.len()..].starts_with('(');
        let from_runner = runner_path(path, dialect, imports).is_some_and(|path| {
            let reached = path[1..].iter().find(|(_, n)| !THROUGH.contains(n));
            reached.is_some_and(|&(at, name)| {
                (OFF.contains(&name) && !declared_and_runs_here(code, raw, path[0].0, at, name, dialect))
                    || no_parameters(code, at, name)
            })
        });
        let handle = path.get(1).is_some_and(|&(at, name)| {
            HANDLES.iter().any(|(h, d, skips)| *h == first && dialect.reads(*d) && skips.contains(&name))
                && calls(at, name)
        });
        let last = path.last().filter(|_| path.len() > 1);
        let go = dialect.reads(Dialect::Go) && last.is_some_and(|&(at, n)| GO_SKIPS.contains(&n) && calls(at, n));
        let py = dialect.reads(Dialect::Python) && last.is_some_and(|&(_, n)| n == "SkipTest" || n == "skipTest");
        from_runner || handle || go || py
    })
}

/// The path from its runner, where it starts at one: a runner's own name
/// or a name the file's imports bind to one (`pt` for `pytest`, `check`
/// for `it`), or a module's namespace they bind whose member is one
/// (`T.it.skip`: the path from `it`).
fn runner_path<'p, 'a>(
    path: &'p [(usize, &'a str)],
    dialect: Dialect,
    imports: &Imports,
) -> Option<&'p [(usize, &'a str)]> {
    let is_runner = |name: &str| {
        (dialect.reads(Dialect::Js) && JS_RUNNERS.contains(&name))
            || (dialect.reads(Dialect::Python) && PY_RUNNERS.contains(&name))
    };
    let (_, first) = path[0];
    if is_runner(first) || is_runner(imports.resolve(first)) {
        return Some(path);
    }
    let namespace = imports.of_name(first) == Some(&Bound::Namespace);
    let through = path.get(1).filter(|&&(_, n)| namespace && is_runner(n));
    through.map(|_| &path[1..])
}

/// Whether `name` at `at`, reached from a runner, gives a test no case to
/// run: a parametrize or each whose parameters are an empty list
/// (pytest's `parametrize("x", [])`, which it skips as "got empty
/// parameter set"; `test.each([])`, `it.each([])`, which declare no test).
/// A list spread over lines is read by its first line only.
fn no_parameters(code: &str, at: usize, name: &str) -> bool {
    let open = at + name.len();
    if code.as_bytes().get(open) != Some(&b'(') {
        return false;
    }
    let args = arguments(code, open);
    let keyword = |(from, _): &(usize, usize)| {
        let key = word_at(code, *from);
        let rest = code[from + key.len()..].trim_start();
        (!key.is_empty() && rest.starts_with('=') && !rest.starts_with("==")).then_some(key)
    };
    let values = match name {
        "parametrize" => args
            .iter()
            .find(|a| keyword(a) == Some("argvalues"))
            .or_else(|| args.iter().filter(|a| keyword(a).is_none()).nth(1)),
        "each" => args.first(),
        _ => None,
    };
    values.is_some_and(|span| {
        let text = &code[span.0..span.1];
        let value = match keyword(span) {
            Some(_) => text.split_once('=').map_or(text, |(_, v)| v),
            None => text,
        };
        let compact: String = value.chars().filter(|c| !c.is_whitespace()).collect();
        matches!(compact.as_str(), "[]" | "()" | "list()" | "tuple()")
    })
}

/// Whether the conditional `name` at `at`, reached from the runner at
/// `start`, marks a test or case the line declares, and its condition is
/// read as letting it run here: JavaScript's `it.skipIf(COND)("x", ..)`
/// opening the line, or a mark inside the `pytest.param(..)` the line
/// opens with.
fn declared_and_runs_here(code: &str, raw: &str, start: usize, at: usize, name: &str, dialect: Dialect) -> bool {
    let Some(&(_, runs_if_it_holds)) = CONDITIONAL.iter().find(|(c, _)| *c == name) else { return false };
    let open = at + name.len();
    if code.as_bytes().get(open) != Some(&b'(') {
        return false;
    }
    let close = matching(code.as_bytes(), open);
    let js_test = dialect.reads(Dialect::Js)
        && start == 0
        && JS_RUNNERS.contains(&word_at(code, 0))
        && close.is_some_and(|c| code.as_bytes().get(c + 1) == Some(&b'('));
    let py_case = dialect.reads(Dialect::Python)
        && code.strip_prefix("pytest.param").is_some_and(|r| r.starts_with('('))
        && matching(code.as_bytes(), "pytest.param".len()).map_or(true, |end| at < end);
    if !(js_test || py_case) {
        return false;
    }
    let Some(&(from, to)) = arguments(code, open).first() else { return false };
    // A keyword first (`skipif(reason="x")`, `xfail(strict=True)`): no
    // condition, so the mark holds everywhere.
    let keyword = word_at(code, from).len();
    if keyword > 0
        && code[from + keyword..to].trim_start().starts_with('=')
        && !code[from + keyword..to].trim_start().starts_with("==")
    {
        return false;
    }
    truth_here(&code[from..to], &raw[from..to], false) == Some(runs_if_it_holds)
}

/// Whether the line opens a JavaScript test call (a runner's name, its
/// modifiers and their calls: `test.concurrent(`, `it.skipIf(c)(`) whose
/// options (its first argument when that is an object, else the one after
/// its name) give `skip`, `todo`, `ignore` or `only` a value not read as
/// false here, or name one alone (`{ skip }`).
fn js_options_turn_off(code: &str, raw: &str, imports: &Imports) -> bool {
    let bytes = code.as_bytes();
    let first = word_at(code, 0);
    if !JS_RUNNERS.contains(&first) && !JS_RUNNERS.contains(&imports.resolve(first)) {
        let namespace = imports.of_name(first) == Some(&Bound::Namespace)
            && bytes.get(first.len()) == Some(&b'.')
            && JS_RUNNERS.contains(&word_at(code, first.len() + 1));
        if !namespace {
            return false;
        }
    }
    let mut i = first.len();
    let call = loop {
        match bytes.get(i) {
            Some(b'.') if !word_at(code, i + 1).is_empty() => i += 1 + word_at(code, i + 1).len(),
            Some(b'(') => match matching(bytes, i) {
                Some(close) if matches!(bytes.get(close + 1), Some(b'(' | b'.')) => i = close + 1,
                _ => break i,
            },
            _ => return false,
        }
    };
    let args = arguments(code, call);
    let object = args.iter().take(2).find(|&&(from, _)| bytes[from] == b'{');
    let Some(&(open, _)) = object else { return false };
    arguments(code, open).iter().any(|&(from, to)| {
        let key = word_at(code, from);
        if !JS_OPTIONS.contains(&key) {
            return false;
        }
        let rest = code[from + key.len()..to].trim_start();
        if rest.is_empty() {
            return true;
        }
        let Some(value) = rest.strip_prefix(':').filter(|v| !v.starts_with(':')) else { return false };
        let at = to - value.len();
        truth_here(value, &raw[at..to], true) != Some(false)
    })
}

/// Whether the line opens an RSpec example or group (`it "adds", ...`)
/// whose metadata turns it off: `:skip` or `:pending`, or `skip:` or
/// `pending:` with a value not read as false.
fn rspec_options_turn_off(code: &str, raw: &str) -> bool {
    let first = word_at(code, 0);
    let after = &code[first.len()..];
    if !RSPEC.contains(&first) || !after.starts_with([' ', '(']) {
        return false;
    }
    let spans = if after.starts_with('(') {
        arguments(code, first.len())
    } else {
        let body = after.trim_end();
        let body = body.strip_suffix(" do").or_else(|| body.strip_suffix('{')).unwrap_or(body);
        split_top(body).into_iter().map(|(from, to)| (first.len() + from, first.len() + to)).collect()
    };
    spans.into_iter().skip(1).any(|(from, to)| {
        let arg = &code[from..to];
        if arg == ":skip" || arg == ":pending" {
            return true;
        }
        let key = word_at(code, from);
        let Some(value) = arg[key.len()..].strip_prefix(':').filter(|_| key == "skip" || key == "pending") else {
            return false;
        };
        let at = to - value.len();
        truth_here(value.trim_start(), raw[at..to].trim_start(), true) != Some(false)
    })
}

/// What a condition is read as where the check runs: `Some` only for a
/// literal (`true`, `false`, `0`, `None`, `null`, a string where
/// `strings` are values) or a comparison of the platform with a string
/// (`sys.platform == "win32"`, `process.platform !== 'darwin'`,
/// `sys.platform.startswith("win")`), optionally negated; `None` for any
/// other, which may hold.
fn truth_here(code: &str, raw: &str, strings: bool) -> Option<bool> {
    let (code, raw) = (code.trim(), raw.trim());
    for not in ["not ", "!"] {
        if let Some(c) = code.strip_prefix(not) {
            let r = &raw[not.len()..];
            return truth_here(c, r, strings).map(|t| !t);
        }
    }
    if code.starts_with('(') && matching(code.as_bytes(), 0) == Some(code.len() - 1) {
        return truth_here(&code[1..code.len() - 1], &raw[1..raw.len() - 1], strings);
    }
    match code {
        "true" | "True" | "1" => return Some(true),
        "false" | "False" | "0" | "None" | "null" | "undefined" => return Some(false),
        _ => {}
    }
    if strings && string_literal(code) {
        return Some(raw.len() > 2);
    }
    for op in ["===", "!==", "==", "!="] {
        if let Some(at) = code.find(op) {
            let (l, r) = (raw[..at].trim(), raw[at + op.len()..].trim());
            let (l_code, r_code) = (code[..at].trim(), code[at + op.len()..].trim());
            let (platform, text) = match (platform_here(l_code), platform_here(r_code)) {
                (Some(p), None) if string_literal(r_code) => (p, r),
                (None, Some(p)) if string_literal(l_code) => (p, l),
                _ => return None,
            };
            let equal = platform == &text[1..text.len() - 1];
            return Some(equal == op.starts_with('='));
        }
    }
    for starts in [".startswith(", ".startsWith("] {
        if let Some(at) = code.find(starts) {
            let platform = platform_here(&code[..at])?;
            let arg = &code[at + starts.len()..];
            let arg_raw = &raw[at + starts.len()..];
            let close = arg.find(')').filter(|&c| c + 1 == arg.len())?;
            let prefix = arg_raw[..close].trim();
            return string_literal(arg[..close].trim()).then(|| platform.starts_with(&prefix[1..prefix.len() - 1]));
        }
    }
    None
}

/// The value of a platform expression on the machine the check runs on,
/// where this build knows it.
fn platform_here(expr: &str) -> Option<&'static str> {
    let (linux, mac, windows) = (cfg!(target_os = "linux"), cfg!(target_os = "macos"), cfg!(windows));
    let pick = |l: &'static str, m: &'static str, w: &'static str| {
        if linux {
            Some(l)
        } else if mac {
            Some(m)
        } else if windows {
            Some(w)
        } else {
            None
        }
    };
    match expr.replace(' ', "").as_str() {
        "sys.platform" | "process.platform" | "os.platform()" => pick("linux", "darwin", "win32"),
        "os.name" => pick("posix", "posix", "nt"),
        "platform.system()" => pick("Linux", "Darwin", "Windows"),
        _ => None,
    }
}

/// Whether masked code is one whole string literal.
fn string_literal(code: &str) -> bool {
    let b = code.as_bytes();
    b.len() >= 2
        && matches!(b[0], b'"' | b'\'' | b'`')
        && b[b.len() - 1] == b[0]
        && !code[1..code.len() - 1].contains(['"', '\'', '`'])
}

/// The arguments of the bracket group opening at `open` (to its close, or
/// the line's end), each as the span of its text without the space around.
fn arguments(code: &str, open: usize) -> Vec<(usize, usize)> {
    let end = matching(code.as_bytes(), open).unwrap_or(code.len());
    split_top(&code[open + 1..end]).into_iter().map(|(from, to)| (open + 1 + from, open + 1 + to)).collect()
}

/// The spans of `code` split at its commas outside brackets, each
/// without the space around it; empty ones left out.
fn split_top(code: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut from = 0;
    let mut push = |from: usize, to: usize| {
        let part = &code[from..to];
        let lead = part.len() - part.trim_start().len();
        let trail = part.len() - part.trim_end().len();
        if from + lead < to - trail {
            out.push((from + lead, to - trail));
        }
    };
    for (i, b) in code.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                push(from, i);
                from = i + 1;
            }
            _ => {}
        }
    }
    push(from, code.len());
    out
}

/// The dotted paths of the line, each as its names with their offsets,
/// beginning at a name not itself reached through a dot. A path ends at
/// a call: what a call returns is no runner's name.
fn paths(code: &str) -> Vec<Vec<(usize, &str)>> {
    let mut out = Vec::new();
    for &(at, first) in &words(code) {
        let before = code[..at].trim_end().chars().next_back();
        if before == Some('.') || code[..at].ends_with("::") {
            continue;
        }
        let mut path = vec![(at, first)];
        let mut i = at + first.len();
        loop {
            let step = if code[i..].starts_with("::") {
                2
            } else if code[i..].starts_with('.') {
                1
            } else {
                break;
            };
            let name = word_at(code, i + step);
            if name.is_empty() {
                break;
            }
            path.push((i + step, name));
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

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The line with the insides of its string literals (`"..."`, `'...'`,
/// `` `...` ``) made blanks, byte for byte, so a test's name (`it("a
/// skip: case")`) is not read as code and an offset in it is one in the
/// line. A quote left open blanks the rest of the line.
pub(super) fn mask_strings(line: &str) -> String {
    mask(line)
}

fn mask(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let blank = |out: &mut String, c: char| {
        for _ in 0..c.len_utf8() {
            out.push(' ');
        }
    };
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                    blank(&mut out, c);
                } else if c == '\\' {
                    escaped = true;
                    blank(&mut out, c);
                } else if c == q {
                    quote = None;
                    out.push(c);
                } else {
                    blank(&mut out, c);
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
    use super::{disables_a_test, Dialect, Imports};

    fn off_in(line: &str, dialect: Dialect) -> bool {
        disables_a_test(line.as_bytes(), dialect, &Imports::default())
    }

    /// Each line is read as turning a test off in its own language and in
    /// a file of no language read here.
    fn all_off(dialect: Dialect, lines: &[&str]) {
        for line in lines {
            assert!(off_in(line, dialect), "{dialect:?}: {line}");
            assert!(off_in(line, Dialect::Any), "Any: {line}");
        }
    }

    /// No line is read as turning a test off in its own language.
    fn none_off(dialect: Dialect, lines: &[&str]) {
        for line in lines {
            assert!(!off_in(line, dialect), "{dialect:?}: {line}");
        }
    }

    #[test]
    fn every_runners_form_of_a_test_turned_off_is_read() {
        all_off(
            Dialect::Rust,
            &[
                "#[ignore]",
                "#[ignore = \"slow\"]",
                "#[cfg(any())]",
                "#![cfg(any())]",
                "#![cfg(not(test))]",
                "#[cfg_attr(miri, ignore)]",
            ],
        );
        all_off(
            Dialect::Go,
            &[
                "t.Skip(\"flaky\")",
                "t.SkipNow()",
                "t.Skipf(\"later: %d\", n)",
                "tt.Skip()",
                "if testing.Short() { t.Skip(\"short\") }",
                "//go:build ignore",
                "// +build ignore",
            ],
        );
        all_off(
            Dialect::Python,
            &[
                "@unittest.skip(\"flaky\")",
                "@unittest.skipIf(sys.platform == \"win32\", \"x\")",
                "@unittest.expectedFailure",
                "@skipUnless(HAVE_DB, \"no db\")",
                "@pytest.mark.skip",
                "@pytest.mark.skipif(True, reason=\"x\")",
                "@pytest.mark.skipif(sys.platform == \"win32\", reason=\"x\")",
                "@pytest.mark.xfail(strict=False)",
                "@mark.skip",
                "pytestmark = pytest.mark.skip",
                "pytestmark = [pytest.mark.slow, pytest.mark.xfail]",
                "pytest.param(3, marks=pytest.mark.xfail),",
                "pytest.param(3, marks=pytest.mark.skipif(True, reason=\"x\")),",
                "pytest.param(3, marks=pytest.mark.skipif(sys.platform != \"win32\", reason=\"x\")),",
                "pytest.param(3, marks=pytest.mark.skipif(sys.version_info < (3, 8), reason=\"x\")),",
                "pytest.param(3, marks=[pytest.mark.slow, pytest.mark.skip]),",
                "pytest.xfail(\"later\")",
                "pytest.skip(\"later\")",
                "pytest.importorskip(\"numpy\")",
                "skip(\"imported bare\")",
                "xfail(\"imported bare\")",
                "self.skipTest(\"x\")",
                "raise unittest.SkipTest(\"x\")",
                "raise unittest.case.SkipTest(\"x\")",
                "raise SkipTest",
                "raise nose.SkipTest",
                "raise pytest.skip.Exception(\"x\")",
                "if sys.platform == \"win32\": pytest.skip(\"x\")",
            ],
        );
        all_off(
            Dialect::Js,
            &[
                "it.skip(\"adds\", () => {",
                "it.skipIf(true)(\"adds\", () => {",
                "it.skipIf(process.env.CI)(\"adds\", () => {",
                "it.skipIf(process.platform !== 'win32')(\"adds\", () => {",
                "it.runIf(false)(\"adds\", () => {",
                "describe.skipIf(process.env.CI)(\"calc\", () => {",
                "const run = describe.skipIf(process.platform === 'win32')",
                "test.concurrent.skip(\"adds\", async () => {",
                "test.skip.each([1, 2])(\"adds %i\", (n) => {",
                "test.describe.only(\"calc\", () => {",
                "test.fixme(\"adds\", async () => {",
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
                "test(\"adds\", { skip: 'not yet' }, () => {",
                "test(\"adds\", { skip: process.env.CI }, () => {",
                "test(\"adds\", { skip: process.platform !== 'win32' }, () => {",
                "test(\"adds\", { skip }, () => {",
                "test({ skip: true }, () => {",
                "it(\"adds\", { todo: \"later\" }, () => {",
                "it(\"adds\", { only: true }, () => assert.ok(add(1, 2)))",
                "Deno.test({ name: \"adds\", ignore: true, fn() {",
                "Deno.test.ignore(\"adds\", () => {",
            ],
        );
        all_off(
            Dialect::Ruby,
            &[
                "xit \"adds\" do",
                "xdescribe Calc do",
                "xcontext \"when empty\" do",
                "it \"adds\", skip: true do",
                "it \"adds\", skip: \"flaky\" do",
                "it \"adds\", :pending do",
                "skip \"flaky\"",
                "skip",
                "pending \"later\"",
                "skip \"on windows\" if Gem.win_platform?",
            ],
        );
    }

    #[test]
    fn a_line_that_tests_or_only_names_these_words_is_not_read_as_one() {
        none_off(
            Dialect::Rust,
            &[
                "let rest: Vec<_> = v.iter().skip(1).collect();",
                "assert_eq!(t.iter().skip(1).next(), Some(&\"b\"));",
                "let rest = t.skip(1);",
                "assert_eq!(add(1, 2), 3);",
                "#[test]",
                "#[cfg_attr(miri, should_panic)]",
                "#[should_panic]",
                "// covers the skip",
                "fit(&mut model, &xs);",
            ],
        );
        none_off(
            Dialect::Go,
            &["if got != want { t.Fatalf(\"got %d\", got) }", "if t.Skipped() { return }", "r.skip(4)"],
        );
        none_off(
            Dialect::Python,
            &[
                "assert add(1, 2) == 3",
                "self.assertEqual(add(1, 2), 3)",
                "assert self.items.skip(1) if False else self.items",
                "assert self.only == [1]",
                "skip = 3",
                "reader.skip(4)",
                "model.fit(x, y)",
                "fit(model, x)",
                "@pytest.mark.parametrize(\"n\", [1, 2])",
                "pytest.param(\"1\", \"2\", 3, marks=pytest.mark.skipif(sys.platform == \"win32\", reason=\"x\")),",
                "pytest.param(1, marks=pytest.mark.skipif(os.name == 'nt', reason='x')),",
                "pytest.param(1, marks=pytest.mark.skipif(not sys.platform.startswith(\"linux\"), reason='x')),",
                "pytest.param(1, marks=pytest.mark.skipif(False, reason='x')),",
                "pytest.param(1, marks=pytest.mark.xfail(platform.system() == \"Windows\", reason='x')),",
                "def test_skip_is_read():",
            ],
        );
        none_off(
            Dialect::Js,
            &[
                "it(\"adds\", () => {",
                "it(\"a skip: case\", () => {",
                "test(\"only the first\", () => {",
                "describe.each([1, 2])(\"calc %i\", (n) => {",
                "test(\"adds\", { skip: false }, () => {",
                "it('copies', { skip: process.platform === 'win32' }, () => assert.ok(pick({})))",
                "it.skipIf(process.platform === 'win32')(\"adds\", () => {",
                "it.runIf(process.platform !== 'win32')(\"adds\", () => {",
                "it('picks only', () => assert.deepEqual(pick({ a: 1, b: 2 }, { only: ['a'] }), { a: 1 }))",
                "it('skips', () => expect(list({ skip: 1 })).toEqual([2]))",
                "expect(add(1, 2)).toBe(3);",
                "expect(x.only).toBe(true);",
                "expect(t.skip).toBe(1);",
                "expect(page.getByText('skip')).toBeVisible()",
                "const rows = iter.skip(1);",
                "// covers the skip",
            ],
        );
        all_off(Dialect::Ruby, &["it(\"adds\", skip: true) do"]);
        none_off(Dialect::Ruby, &["it \"adds\" do", "it \"adds\", skip: false do", "expect(list.skip(1)).to eq([2])"]);
    }

    #[test]
    fn a_runner_reached_through_the_name_an_import_binds_it_to_turns_a_test_off() {
        let py = Imports::of(b"import pytest as pt\nimport unittest as ut\nfrom pytest import mark as m\nfrom unittest import skip as later\n", Dialect::Python);
        let js = Imports::of(b"import { it as check } from 'vitest'\nimport * as T from 'vitest'\nconst { test: t2 } = require('node:test')\nconst h = require('./helpers')\n", Dialect::Js);
        let off = |line: &str, d: Dialect, i: &Imports| disables_a_test(line.as_bytes(), d, i);
        for line in [
            "@pt.mark.skip",
            "@ut.skip(\"later\")",
            "pt.skip(\"later\")",
            "@m.xfail",
            "@later(\"x\")",
            "pytestmark = pt.mark.skip",
        ] {
            assert!(off(line, Dialect::Python, &py), "{line}");
            assert!(
                !off(line, Dialect::Python, &Imports::default()) || line.starts_with("@later"),
                "{line} without its import"
            );
        }
        for line in [
            "check.skip('adds', () => {",
            "t2.skip('adds', () => {",
            "T.it.skip('adds', () => {",
            "T.describe.only('calc', () => {",
            "t2('adds', { skip: true }, () => {",
            "check.only('adds', () => {",
        ] {
            assert!(off(line, Dialect::Js, &js), "{line}");
        }
        for line in ["@pt.mark.parametrize(\"x\", [1, 2])", "assert pt.approx(1.0) == 1.0"] {
            assert!(!off(line, Dialect::Python, &py), "{line}");
        }
        for line in ["check('adds', () => {", "T.expect(x).only", "h.skip(1)", "T.it('adds', () => {"] {
            assert!(!off(line, Dialect::Js, &js), "{line}");
        }
    }

    #[test]
    fn an_empty_parameter_list_declares_no_case() {
        all_off(
            Dialect::Python,
            &[
                "@pytest.mark.parametrize(\"x\", [])",
                "@pytest.mark.parametrize(\"x\", ())",
                "@pytest.mark.parametrize(\"x, y\", [ ], ids=str)",
                "@mark.parametrize(argnames=\"x\", argvalues=[])",
            ],
        );
        all_off(
            Dialect::Js,
            &["test.each([])('adds %i', (n) => {", "it.each([])('adds', () => {", "describe.each([])('calc', () => {"],
        );
        none_off(Dialect::Python, &["@pytest.mark.parametrize(\"x\", [1])", "@pytest.mark.parametrize(\"x\", CASES)"]);
        none_off(
            Dialect::Js,
            &[
                "test.each(cases)('adds %i', (n) => {",
                "it.each([[1, 2]])('adds', (a, b) => {",
                "const xs = list.each([])",
            ],
        );
    }
}
