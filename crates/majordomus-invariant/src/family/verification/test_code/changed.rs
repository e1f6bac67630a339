//! The reading: which changed files add or edit lines inside test items.
//! Each changed file of a known language is compared, line by line, with
//! its blob at the start commit (a file new since the start: every line is
//! added), and the lines added or edited are looked up in the file's test
//! items as it is now.
//!
//! Where a fetch brought commits onto HEAD since the start (a colleague's,
//! pulled: `majordomus_readings::refs::arrival`), a file is compared with
//! its blob at each of the newest of them too, and only the lines added or
//! edited against every one of those and the start are the task's: a test
//! a colleague added to a file the task also edited is theirs.
//!
//! A line added inside a test item that the change took out of a file
//! (its own or another, deleted or modified: [`TakenOut`]) is moved, not
//! written, and counts for nothing; nor do the lines that only wrap the
//! test items a new module, suite or class holds ([`super::wrapping`]), so
//! a test carried between files or into a new `#[cfg(test)] mod tests`
//! adds no test (test/cases/525).
//!
//! A file that was already changed at the start (dirty or untracked then) is
//! not read: which of its lines are the task's cannot be told, so none is
//! counted, and it is named as not read. So is a file over
//! [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES), or one that is not UTF-8.

use std::collections::BTreeSet;
use std::path::Path;

use majordomus_readings::{Reading, Repo, Unread};
use majordomus_records::task::Snapshot;

use super::super::test_path::TestRules;
use super::pytest::PytestRules;
use super::{js, python, rust, touched, Language, TestItem, MAX_FILE_BYTES};
use crate::family::verification::moved::TakenOut;

/// What the change did to test code inside files that are not test paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestCode {
    /// Each file whose added or edited lines fall inside test items, with
    /// the items, as a reader names them.
    pub touched: Vec<(String, Vec<String>)>,
    /// How many files were read.
    pub read: usize,
    /// Files of a known language not read, each with why.
    pub not_read: Vec<(String, String)>,
    /// pytest's rules, when a Python file was considered.
    pub pytest: Option<PytestRules>,
    /// The lines the change added that were read as only turning a test
    /// off, each as its file, line and words, so an answer can name them.
    pub turned_off: Vec<(String, usize, String)>,
    /// Each file with how many lines it added inside test items that the
    /// change took out elsewhere (moved, not written), where any were.
    pub moved: Vec<(String, usize)>,
}

/// The words of line `n` (1-based) of `text`, the space around them aside,
/// cut to what an answer can quote.
pub fn words_of(text: &str, n: usize) -> String {
    let line = text.lines().nth(n.saturating_sub(1)).unwrap_or("").trim();
    match line.char_indices().nth(100) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_string(),
    }
}

/// Reads `candidates` (changed paths, none a test path) against the start
/// commit `start` (`None`: HEAD was unborn then), and against each of
/// `arrived` (the newest commits a fetch brought onto HEAD). A file of a
/// language read here is read for its test items; one `rules` declares
/// test items in (`[tests] items`, whatever its language) for the lines
/// holding the marker declared ([`declared`]). A line inside a test item,
/// or holding a declared marker, that is one of `taken_out` is drawn from
/// it and not counted: a test moved is not written (test/cases/524, 525).
pub fn read(
    repo: &Repo,
    start: Option<&str>,
    arrived: &[String],
    snapshot: &Snapshot,
    candidates: &[&str],
    rules: &TestRules,
    taken_out: &mut TakenOut<'_>,
) -> Reading<TestCode> {
    let start_tree = tree_of(repo, start)?;
    let mut arrived_trees = Vec::with_capacity(arrived.len());
    for id in arrived {
        let oid = git2::Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))?;
        let commit = repo.git.find_commit(oid).map_err(|e| Unread::git(&format!("the commit {id}"), &e))?;
        arrived_trees.push(commit.tree().map_err(|e| Unread::git(&format!("the tree of {id}"), &e))?);
    }
    let changed_at_start: BTreeSet<&str> = snapshot
        .dirty
        .iter()
        .flatten()
        .filter_map(|d| d.path.to_str())
        .chain(snapshot.untracked.iter().flatten().filter_map(|u| u.path.to_str()))
        .collect();
    let root = repo.root();
    let mut code = TestCode::default();
    for &path in candidates {
        let language = Language::of(path);
        let markers = rules.markers_of(path);
        // Whether the file's own language's test items are read: not in a
        // Python file pytest does not collect, nor (below) in a JavaScript
        // file no runner collects.
        let mut items_read = language.is_some();
        if language == Some(Language::Python) {
            if code.pytest.is_none() {
                code.pytest = Some(pytest_rules(repo, start_tree.as_ref())?);
            }
            items_read = code.pytest.as_ref().is_some_and(|rules| rules.collects_file(path));
        }
        if !items_read && markers.is_empty() {
            continue;
        }
        if changed_at_start.contains(path) {
            code.not_read.push((path.to_string(), "it was already changed at the start".into()));
            continue;
        }
        let now = match file_now(root, path) {
            Ok(Some(text)) => text,
            Ok(None) => continue,
            Err(why) => {
                code.not_read.push((path.to_string(), why));
                continue;
            }
        };
        if language == Some(Language::Js) && !js::collected(path, &now) {
            items_read = false;
            if markers.is_empty() {
                continue;
            }
        }
        let before = blob_at(repo, start_tree.as_ref(), path, "at the start")?;
        code.read += 1;
        let (mut added, off) =
            added_lines(before.as_deref(), now.as_bytes(), language).map_err(|e| Unread::git(path, &e))?;
        code.turned_off.extend(off.into_iter().map(|n| (path.to_string(), n, words_of(&now, n))));
        for tree in &arrived_trees {
            if added.is_empty() {
                break;
            }
            let theirs = blob_at(repo, Some(tree), path, "where a fetch brought it")?;
            let also: BTreeSet<usize> = added_lines(theirs.as_deref(), now.as_bytes(), language)
                .map_err(|e| Unread::git(path, &e))?
                .0
                .into_iter()
                .collect();
            added.retain(|n| also.contains(n));
        }
        if added.is_empty() {
            continue;
        }
        // `None`: the whole file is test code; no item where the file's own
        // language's test items are not read (a file `[tests] items` names).
        let items: Option<Vec<TestItem>> = match language.filter(|_| items_read) {
            None => Some(Vec::new()),
            Some(Language::Rust) => {
                let file = rust::read(&now);
                (!(file.whole || declared_as_test_module(root, path))).then_some(file.items)
            }
            Some(Language::Python) => {
                let rules = code.pytest.as_ref().cloned().unwrap_or_default();
                Some(python::read(&now, &rules))
            }
            Some(Language::Js) => Some(js::read(&now)),
        };
        let mut moved = not_moved(&mut added, &now, language, items.as_deref(), taken_out);
        let mut labels: Vec<String> = match &items {
            None if added.is_empty() => Vec::new(),
            None => vec!["the whole file (a module compiled only for tests)".to_string()],
            Some(items) => touched(items, &added).into_iter().map(|i| i.label.clone()).collect(),
        };
        if !markers.is_empty() {
            // A declared marker's line drawn from what the change took out
            // elsewhere was moved, as a test item's.
            let lines: Vec<&str> = now.split('\n').collect();
            let mut drawn = |n: &usize| {
                let line = lines.get(n - 1).copied().unwrap_or_default();
                markers.iter().any(|m| line.contains(m)) && taken_out.draw(line.as_bytes())
            };
            let before = added.len();
            added.retain(|n| !drawn(n));
            moved += before - added.len();
        }
        if moved > 0 {
            code.moved.push((path.to_string(), moved));
        }
        labels.extend(declared(&now, &added, &markers));
        if !labels.is_empty() {
            code.touched.push((path.to_string(), labels));
        }
    }
    Ok(code)
}

/// The test items the policy declares among the `added` lines of `text`
/// (`[tests] items`, test/cases/518), one label a marker: a line holding
/// one of `markers` in its code, the comments of the C family and of the
/// shell taken out (`//` and `/* .. */` wherever they fall, a `#` at the
/// start of the line or after white space, a line opening with `*` inside a
/// block comment) and so the words of its string and character literals
/// ([`code_outside_comments`]), and not under a `#if 0` (a C block compiled out). A
/// marker in a comment writes no test, nor does one whose code the start
/// held (moved, re-indented: `added` holds no such line). One scan of the
/// file, asked only of a file a declaration names.
fn declared(text: &str, added: &[usize], markers: &[&str]) -> Vec<String> {
    if markers.is_empty() || added.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<(&str, Vec<usize>)> = markers.iter().map(|m| (*m, Vec::new())).collect();
    let mut in_block = false;
    let mut compiled_out = 0usize;
    for (n, line) in text.split('\n').enumerate() {
        let was_in_block = in_block;
        let code = code_outside_comments(line, &mut in_block);
        let trimmed = line.trim_start();
        if !was_in_block && trimmed.starts_with('#') {
            compiled_out = preprocessed(trimmed, compiled_out);
            continue;
        }
        if compiled_out > 0 || was_in_block && trimmed.starts_with('*') || added.binary_search(&(n + 1)).is_err() {
            continue;
        }
        for (marker, lines) in &mut found {
            if code.contains(*marker) {
                lines.push(n + 1);
            }
        }
    }
    found
        .into_iter()
        .filter(|(_, lines)| !lines.is_empty())
        .map(|(marker, lines)| {
            let shown: Vec<String> = lines.iter().take(5).map(usize::to_string).collect();
            let more = match lines.len() {
                0..=5 => String::new(),
                n => format!(" and {} more", n - 5),
            };
            let which = if lines.len() == 1 { "line" } else { "lines" };
            format!("`{marker}` on {which} {}{more}, as [tests] items declares", shown.join(", "))
        })
        .collect()
}

/// The code of one line, its comments and the words of its literals taken
/// out: what lies inside a `/* .. */` (carried over lines by `in_block`),
/// after `//`, or after a `#` at the line's start or after white space; and
/// what lies between the quotes of a string (`".."`, a backslash escaping
/// the next character; one left open runs to the end of the line) or of a
/// character or single-quoted literal (`'x'`, `'\n'`, `'..'` closed on
/// the line). A marker in a literal writes no test (`"add a check with
/// test_cond(desc, expr)"`: test/cases/528), and a comment opener inside
/// one opens none. The quotes are kept, so a marker holding one
/// (`TEST_CASE("`) still reads on the code around it.
fn code_outside_comments(line: &str, in_block: &mut bool) -> String {
    let bytes = line.as_bytes();
    let mut code = String::new();
    let mut from = 0;
    let mut i = 0;
    while i < bytes.len() {
        if *in_block {
            match line[i..].find("*/") {
                Some(end) => {
                    *in_block = false;
                    i += end + 2;
                    from = i;
                    continue;
                }
                None => return code,
            }
        }
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => break,
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                code.push_str(&line[from..i]);
                *in_block = true;
                i += 2;
                from = i;
            }
            b'#' if i == 0 || bytes[i - 1].is_ascii_whitespace() => break,
            quote @ (b'"' | b'\'') => match literal_end(bytes, i, quote) {
                Some(end) => {
                    code.push_str(&line[from..=i]);
                    code.push(char::from(quote));
                    i = end + 1;
                    from = i;
                }
                None if quote == b'"' => {
                    code.push_str(&line[from..=i]);
                    return code;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    if !*in_block {
        code.push_str(&line[from..i]);
    }
    code
}

/// Where the literal `quote` opens at `open` in `bytes` closes: the next
/// `quote` not escaped by a backslash on the line (`None`: none does).
fn literal_end(bytes: &[u8], open: usize, quote: u8) -> Option<usize> {
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            c if c == quote => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The depth of the C preprocessor's compiled-out block after the
/// directive `line` (`#if 0` opens one; inside it each `#if..` nests and
/// `#endif` closes, and the `#else` or `#elif` of the `#if 0` itself ends
/// it). Any other condition is taken as holding, as it may.
fn preprocessed(line: &str, depth: usize) -> usize {
    let body = line[1..].split("//").next().unwrap_or("").split("/*").next().unwrap_or("");
    let directive: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    let never = matches!(directive.as_str(), "if 0" | "if (0)" | "if false" | "if (false)");
    match directive.split(' ').next().unwrap_or("") {
        "if" | "ifdef" | "ifndef" if depth > 0 => depth + 1,
        "if" if never => 1,
        "else" | "elif" | "elifdef" | "elifndef" if depth == 1 => 0,
        "endif" => depth.saturating_sub(1),
        _ => depth,
    }
}

/// Takes out of `added` (lines of `now`) those inside test items (all of
/// `now` where `items` is `None`, a file all test code) that only wrap the
/// items a module, suite or class holds ([`super::wrapping`]), and then
/// those the change took out elsewhere, each drawn from `taken_out`: a
/// test moved is not written. A line is drawn by its words or by its code
/// in `language`, its trailing comment cut as lines in test items are
/// compared ([`super::code_of_lines`], test/cases/510, 528). Returns how
/// many were moved. Lines outside test items draw nothing, so code moved
/// beside them leaves the copies for the tests.
fn not_moved(
    added: &mut Vec<usize>,
    now: &str,
    language: Option<Language>,
    items: Option<&[TestItem]>,
    taken_out: &mut TakenOut<'_>,
) -> usize {
    let lines: Vec<&str> = now.split('\n').collect();
    let code = super::code_of_lines(now.as_bytes(), language);
    let wrapping = items.map(|items| super::wrapping(items, &lines)).unwrap_or_default();
    let mut moved = 0;
    added.retain(|n| {
        let inside = items.map_or(true, |items| super::innermost(items, *n).is_some());
        if !inside {
            return true;
        }
        if wrapping.contains(n) {
            return false;
        }
        let code = code.get(n - 1).map(Vec::as_slice).unwrap_or_default();
        let drawn = lines.get(n - 1).is_some_and(|l| taken_out.draw_code(l.as_bytes(), code));
        moved += usize::from(drawn);
        !drawn
    });
    moved
}

/// The content of `path` in `tree` (`None`: no tree, or no such path).
fn blob_at(repo: &Repo, tree: Option<&git2::Tree<'_>>, path: &str, at: &str) -> Reading<Option<Vec<u8>>> {
    let Some(tree) = tree else { return Ok(None) };
    match tree.get_path(Path::new(path)) {
        Ok(entry) => {
            let blob = entry
                .to_object(&repo.git)
                .and_then(|o| o.peel_to_blob())
                .map_err(|e| Unread::git(&format!("{path} {at}"), &e))?;
            Ok(Some(blob.content().to_vec()))
        }
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(Unread::git(&format!("{path} {at}"), &e)),
    }
}

/// pytest's rules as the configuration at the working tree's root gives them.
pub fn pytest_rules_at(root: &Path) -> PytestRules {
    PytestRules::from_files(|f| read_small(root, f))
}

/// pytest's rules under a task: the working tree's held within the start
/// commit's `start_tree` (`None`: HEAD was unborn then, and pytest's
/// defaults held). A test must be one by the rules the start held, as the
/// policy in force is the start's: a configuration the task adds or edits
/// (a `pytest.ini` with `python_files = *.py`, or a `pytest.toml`, which
/// pytest reads before the start's `pyproject.toml`) may narrow what counts,
/// never widen it (test/cases/469).
pub fn pytest_rules(repo: &Repo, start_tree: Option<&git2::Tree<'_>>) -> Reading<PytestRules> {
    let mut held = Vec::new();
    for name in super::pytest::FILES {
        let blob = blob_at(repo, start_tree, name, "at the start")?;
        if let Some(text) = blob.filter(|b| b.len() as u64 <= MAX_FILE_BYTES).and_then(|b| String::from_utf8(b).ok()) {
            held.push((name, text));
        }
    }
    let start = PytestRules::from_files(|f| held.iter().find(|(n, _)| *n == f).map(|(_, t)| t.clone()));
    Ok(pytest_rules_at(repo.root()).narrowing(start))
}

/// pytest's rules under the task whose start commit is `start` (`None`:
/// HEAD was unborn then), for `majordomus explain`.
pub fn pytest_rules_since(repo: &Repo, start: Option<&str>) -> Reading<PytestRules> {
    pytest_rules(repo, tree_of(repo, start)?.as_ref())
}

/// The tree of the start commit `start` (`None`: HEAD was unborn then).
fn tree_of<'r>(repo: &'r Repo, start: Option<&str>) -> Reading<Option<git2::Tree<'r>>> {
    let Some(id) = start else { return Ok(None) };
    let oid = git2::Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))?;
    let commit = repo.git.find_commit(oid).map_err(|_| Unread::start_commit_missing(id))?;
    Ok(Some(commit.tree().map_err(|e| Unread::git(&format!("the tree of {id}"), &e))?))
}

/// A small file of the working tree, as text (a configuration file).
fn read_small(root: &Path, rel: &str) -> Option<String> {
    let path = root.join(rel);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    (meta.is_file() && meta.len() <= MAX_FILE_BYTES)
        .then(|| majordomus_records::regular::read_to_string(&path).ok())
        .flatten()
}

/// The working tree's file at `rel` as text: `Ok(None)` when it is gone
/// (or is not a regular file: nothing to read), `Err` with why it was not
/// read.
fn file_now(root: &Path, rel: &str) -> Result<Option<String>, String> {
    let path = root.join(rel);
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(_) => return Ok(None),
    };
    if !meta.is_file() {
        return Ok(None);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!("it holds {} bytes, more than the {MAX_FILE_BYTES} read for test items", meta.len()));
    }
    let bytes = majordomus_records::regular::read(&path).map_err(|e| format!("it cannot be read: {e}"))?;
    String::from_utf8(bytes).map(Some).map_err(|_| "it is not UTF-8 text".to_string())
}

/// The 1-based lines of `now` added or edited since `before` (`None`: the
/// file is new, so every line is). libgit2's diff of two buffers: no
/// attributes are looked up, no driver runs. A blank line, or one whose
/// code (the space around it and a comment after it aside:
/// [`super::code_of_lines`]) `before` holds (re-indented, moved, a comment
/// appended) adds no test and is not counted (test/cases/406, 510), nor
/// does one that only turns a test off (`#[ignore]`, `it.skip(`:
/// [`super::disables_a_test`]) or lies under a switch that turns off what
/// it encloses (`pytestmark = pytest.mark.skip`, `#[cfg(any())] mod m`:
/// [`super::scope`]; test/cases/509), each given apart, second, as the
/// line that turns it off, so the answer can name them; nor one that
/// returns, is only a comment, does nothing (`pass`, `();`:
/// [`super::writes_no_test_in_an_item`], read on the line and on its code)
/// or is a statement only strings ([`super::string_statements`]), asked of
/// inside test items only.
fn added_lines(
    before: Option<&[u8]>,
    now: &[u8],
    language: Option<Language>,
) -> Result<(Vec<usize>, Vec<usize>), git2::Error> {
    let text: Vec<&[u8]> = now.split(|c| *c == b'\n').map(<[u8]>::trim_ascii).collect();
    let code = super::code_of_lines(now, language);
    let held_code: BTreeSet<Vec<u8>> = super::code_of_lines(before.unwrap_or_default(), language).into_iter().collect();
    let held: BTreeSet<&[u8]> = before.unwrap_or_default().split(|c| *c == b'\n').map(<[u8]>::trim_ascii).collect();
    let new = |n: &usize| text.get(n - 1).filter(|l| !l.is_empty() && !held.contains(*l));
    let imports = super::Imports::of(now, language.into());
    let now_text = std::str::from_utf8(now).unwrap_or_default();
    let enclosed = super::scope::switched_off(now_text, language.into(), &imports);
    let strings = super::string_statements(now_text, language);
    let off = |n: &usize| new(n).is_some_and(|l| super::disables_a_test(l, language.into(), &imports));
    let counts = |n: &usize| {
        !off(n)
            && super::scope::switch_of(&enclosed, *n).is_none()
            && !strings.contains(n)
            && code.get(n - 1).is_some_and(|c| !c.is_empty() && !held_code.contains(c))
            && new(n).is_some_and(|l| !super::writes_no_test_in_an_item(l, language))
            && code.get(n - 1).is_some_and(|c| !super::writes_no_test_in_an_item(c, language))
    };
    let diffed = diffed_lines(before, now)?;
    let mut turned_off: Vec<usize> = diffed.iter().copied().filter(off).collect();
    for n in &diffed {
        if let Some(switch) = super::scope::switch_of(&enclosed, *n).filter(|_| new(n).is_some()) {
            if !turned_off.contains(&switch) {
                turned_off.push(switch);
            }
        }
    }
    turned_off.sort_unstable();
    Ok((diffed.iter().copied().filter(counts).collect(), turned_off))
}

/// The 1-based lines of `now` the diff from `before` adds (`None`: all).
fn diffed_lines(before: Option<&[u8]>, now: &[u8]) -> Result<Vec<usize>, git2::Error> {
    let Some(before) = before else {
        let lines = now.iter().filter(|&&b| b == b'\n').count() + usize::from(!now.ends_with(b"\n") && !now.is_empty());
        return Ok((1..=lines).collect());
    };
    let mut opts = git2::DiffOptions::new();
    opts.context_lines(0).force_text(true);
    let patch = git2::Patch::from_buffers(before, None, now, None, Some(&mut opts))?;
    let mut lines = Vec::new();
    for h in 0..patch.num_hunks() {
        for l in 0..patch.num_lines_in_hunk(h)? {
            let line = patch.line_in_hunk(h, l)?;
            if line.origin() == '+' {
                if let Some(n) = line.new_lineno() {
                    lines.push(n as usize);
                }
            }
        }
    }
    Ok(lines)
}

/// Whether the Rust file at `rel` is a module its parent declares under a
/// test attribute (`#[cfg(test)] mod tests;` in `x.rs` or `x/mod.rs`,
/// `lib.rs` or `main.rs`, for `x/tests.rs`).
fn declared_as_test_module(root: &Path, rel: &str) -> bool {
    let (dir, file) = rel.rsplit_once('/').unwrap_or(("", rel));
    let Some(stem) = file.strip_suffix(".rs") else { return false };
    let (name, dir) = if stem == "mod" {
        match dir.rsplit_once('/') {
            Some((up, name)) => (name, up),
            None => (dir, ""),
        }
    } else {
        (stem, dir)
    };
    if name.is_empty() {
        return false;
    }
    let join = |f: &str| if dir.is_empty() { f.to_string() } else { format!("{dir}/{f}") };
    let mut parents = vec![join("mod.rs"), join("lib.rs"), join("main.rs")];
    if let Some((up, last)) = dir.rsplit_once('/').or(Some(("", dir)).filter(|_| !dir.is_empty())) {
        parents.push(if up.is_empty() { format!("{last}.rs") } else { format!("{up}/{last}.rs") });
    }
    parents
        .iter()
        .filter(|p| p.as_str() != rel)
        .filter_map(|p| read_small(root, p))
        .any(|text| rust::read(&text).test_modules.iter().any(|m| m == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_added_or_edited_are_numbered_as_they_are_now_and_a_new_file_is_all_added() {
        assert_eq!(added_lines(Some(b"a\nb\nc\n"), b"a\nB\nc\nd\n", None).expect("diff").0, [2, 4]);
        assert_eq!(added_lines(Some(b"a\nb\n"), b"b\n", None).expect("diff").0, Vec::<usize>::new());
        assert_eq!(added_lines(None, b"x\ny", None).expect("diff").0, [1, 2]);
        assert_eq!(added_lines(None, b"", None).expect("diff").0, Vec::<usize>::new());
        // A blank line, a line re-indented or moved: no test added.
        assert_eq!(added_lines(Some(b"a\n  b\n"), b"a\n\n    b\n", None).expect("diff").0, Vec::<usize>::new());
        assert_eq!(added_lines(Some(b"a\nb\n"), b"b\na\nc\n", None).expect("diff").0, [3]);
    }

    #[test]
    fn a_comment_appended_or_a_string_statement_writes_no_test_but_code_does() {
        let rust = Some(Language::Rust);
        let then = b"fn t() {\n    assert_eq!(a(), 1);\n}\n";
        let lines = |now: &[u8], language| added_lines(Some(then), now, language).expect("diff").0;
        assert_eq!(lines(b"fn t() {\n    assert_eq!(a(), 1); // covers it\n}\n", rust), Vec::<usize>::new());
        assert_eq!(lines(b"fn t() {\n    \"covers it\";\n    assert_eq!(a(), 1);\n}\n", rust), Vec::<usize>::new());
        assert_eq!(lines(b"#[doc = \"covers it\"]\nfn t() {\n    assert_eq!(a(), 1);\n}\n", rust), Vec::<usize>::new());
        assert_eq!(lines(b"fn t() {\n    assert_eq!(a(), 2); // now 2\n}\n", rust), [2]);
        assert_eq!(lines(b"fn t() {\n    assert_eq!(a(), \"// not a comment\");\n}\n", rust), [2]);
        assert_eq!(lines(b"fn t() {\n    let s = \"x\";\n    assert_eq!(a(), 1);\n}\n", rust), [2]);
        let py = Some(Language::Python);
        let then = b"def test_a():\n    assert a() == 1\n";
        let lines = |now: &[u8]| added_lines(Some(then), now, py).expect("diff").0;
        assert_eq!(lines(b"def test_a():\n    assert a() == 1  # covers it\n"), Vec::<usize>::new());
        assert_eq!(lines(b"def test_a():\n    \"\"\"Covers it.\"\"\"\n    assert a() == 1\n"), Vec::<usize>::new());
        assert_eq!(
            lines(b"def test_a():\n    \"\"\"Covers\n    it.\n    \"\"\"\n    assert a() == 1\n"),
            Vec::<usize>::new()
        );
        assert_eq!(lines(b"def test_a():\n    assert a() == \"#1\"\n"), [2]);
        assert_eq!(lines(b"def test_a():\n    assert a() == (\n        \"x\"\n    )\n"), [2, 3, 4]);
        let js = Some(Language::Js);
        let then = b"it(\"a\", () => {\n  expect(a()).toBe(1)\n})\n";
        let lines = |now: &[u8]| added_lines(Some(then), now, js).expect("diff").0;
        assert_eq!(lines(b"it(\"a\", () => {\n  \"covers it\"\n  expect(a()).toBe(1)\n})\n"), Vec::<usize>::new());
        assert_eq!(lines(b"it(\"a\", () => {\n  expect(a()).toBe(\n    \"x\"\n  )\n})\n"), [2, 3, 4]);
    }

    #[test]
    fn a_line_under_a_switch_that_turns_off_what_it_encloses_is_no_test_and_names_the_switch() {
        let py = Some(Language::Python);
        let then = b"import pytest\npytestmark = pytest.mark.skip\n\ndef test_a():\n    assert 1\n";
        let now = b"import pytest\npytestmark = pytest.mark.skip\n\ndef test_a():\n    assert 1\n\ndef test_b():\n    assert 2\n";
        assert_eq!(added_lines(Some(then), now, py).expect("diff"), (vec![], vec![2]));
        let rust = Some(Language::Rust);
        let now = b"pub fn a() {}\n#[cfg(all(test, any()))]\nmod tests {\n    #[test]\n    fn t() {\n        assert!(true);\n    }\n}\n";
        assert_eq!(added_lines(Some(b"pub fn a() {}\n"), now, rust).expect("diff"), (vec![], vec![2]));
    }

    #[test]
    fn a_declared_marker_counts_on_an_added_line_of_code_only() {
        let then = "int main(void) {\n    test_cond(\"a\", a());\n    return 0;\n}\n";
        let labels = |now: &str| {
            let added = added_lines(Some(then.as_bytes()), now.as_bytes(), None).expect("diff").0;
            declared(now, &added, &["test_cond("])
        };
        let with = |lines: &str| then.replace("    return 0;\n", &format!("{lines}\n    return 0;\n"));
        assert_eq!(labels(&with("    test_cond(\"b\", b());")), ["`test_cond(` on line 3, as [tests] items declares"]);
        assert_eq!(labels(&with("    x(); test_cond(\"b\", b()); /* x */")).len(), 1);
        assert_eq!(labels(&with("    /* a */ test_cond(\"b\", b());")).len(), 1);
        for inert in [
            "    // test_cond(\"b\", b());",
            "    x(); // test_cond(\"b\", b());",
            "    # test_cond(\"b\", b());",
            "    /* test_cond(\"b\", b()); */",
            "    /*\n    test_cond(\"b\", b());\n    */",
            "    /*\n     * test_cond(\"b\", b());\n     */",
            "#if 0\n    test_cond(\"b\", b());\n#endif",
            "#if 0\n#ifdef X\n#endif\n    test_cond(\"b\", b());\n#endif",
            "#define T test_cond(\"b\", b())",
            "        test_cond(\"a\", a());",
            "    const char *h = \"add a check with test_cond(desc, expr)\";",
            "    const char *h = \"say \\\"test_cond(\\\" here\";",
            "    puts('t'); puts(\"test_cond(\"",
            "    char q = '\"'; const char *h = \"test_cond(\";",
        ] {
            assert!(labels(&with(inert)).is_empty(), "{inert}");
        }
        // A comment opener inside a string opens none; a marker holding a
        // quote reads on the code around the literal.
        assert_eq!(labels(&with("    f(\"/* a\"); test_cond(\"b\", b());")).len(), 1);
        assert_eq!(labels(&with("    f(\"// a\", '\\''); test_cond(\"b\", b());")).len(), 1);
        let now = with("    TEST_CASE(\"b\") { b(); }");
        let added = added_lines(Some(then.as_bytes()), now.as_bytes(), None).expect("diff").0;
        assert_eq!(declared(&now, &added, &["TEST_CASE(\""]).len(), 1);
        // The live branch of a `#if 0` and a condition not read count.
        assert_eq!(labels(&with("#if 0\n    x();\n#else\n    test_cond(\"b\", b());\n#endif")).len(), 1);
        assert_eq!(labels(&with("#ifdef SDS_TEST_MAIN\n    test_cond(\"b\", b());\n#endif")).len(), 1);
    }

    #[test]
    fn a_rust_file_its_parent_declares_under_cfg_test_is_test_code() {
        let dir = tempfile::tempdir().expect("temp dir");
        let write = |rel: &str, text: &str| {
            let p = dir.path().join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        };
        write("src/policy.rs", "mod load;\n#[cfg(test)]\nmod tests;\n");
        write("src/lib.rs", "mod policy;\n");
        write("src/judge/mod.rs", "#[cfg(test)]\nmod tests;\n");
        assert!(declared_as_test_module(dir.path(), "src/policy/tests.rs"));
        assert!(!declared_as_test_module(dir.path(), "src/policy/load.rs"));
        assert!(declared_as_test_module(dir.path(), "src/judge/tests.rs"));
        assert!(!declared_as_test_module(dir.path(), "src/policy.rs"));
    }
}
