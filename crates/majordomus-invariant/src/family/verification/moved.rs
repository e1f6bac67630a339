//! The lines the change took out, so that a test moved is not a test
//! written (test/cases/524, 525).
//!
//! A test moved from one file into another (`git mv` and a blank line,
//! re-indented, two test files concatenated, a `#[cfg(test)] mod tests`
//! carried into `tests/`, or the other way) adds lines to its new file that
//! its new file did not hold, yet no line the start did not hold somewhere.
//! A line added counts towards a test only where it is not one the change
//! took out of a path it deleted or modified: the lines taken out are kept
//! as copies (a multiset, each line without the space around it), and each
//! line added draws one copy, so one copy taken out accounts for one copy
//! added, and a test moved and edited counts on its edited lines.
//!
//! What the change took out of a path is measured against what the change
//! holds there: a path the index no longer holds gave up all its lines,
//! whatever the disk still holds (`git rm --cached` of a file an ignore
//! rule then hides: test/cases/528); otherwise its file now.
//!
//! Inside a test item lines are compared with their trailing comments cut
//! (test/cases/510), so there a line added is drawn as moved where it, or
//! its code, is a line taken out or the code of one ([`TakenOut::draw_code`]):
//! a comment appended to a moved line, or cut from it, writes no test
//! (test/cases/528).
//!
//! Reading stays bounded and is done only where it is asked: the first
//! draw reads, once, each changed path the start commit held (its blob
//! then and its file now, each at most [`MAX_FILE_BYTES`], text only); a
//! file over that or not text takes out nothing it can be told to.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;

use majordomus_readings::Repo;
use majordomus_records::RepoPath;

use super::test_code::{code_of_lines, Language, MAX_FILE_BYTES};

/// The copies of lines the change took out, read on the first draw.
pub struct TakenOut<'a> {
    repo: &'a Repo,
    /// The start commit (`None`: HEAD was unborn then, nothing was held).
    start: Option<&'a str>,
    changed: &'a [RepoPath],
    left: Option<Pool>,
    drawn: usize,
}

/// The copies taken out, by line (the space around it aside), and, for a
/// line whose trailing comment its language cuts, its code and the lines
/// holding that code, so one copy is drawn by its line or by its code.
#[derive(Default)]
struct Pool {
    copies: BTreeMap<Vec<u8>, usize>,
    by_code: BTreeMap<Vec<u8>, Vec<Vec<u8>>>,
}

impl Pool {
    /// Draws one copy of the line `line`, where one is left.
    fn take(&mut self, line: &[u8]) -> bool {
        match self.copies.get_mut(line) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }

    /// Draws one copy of a line taken out whose code is `code`.
    fn take_by_code(&mut self, code: &[u8]) -> bool {
        let Some(lines) = self.by_code.get(code) else { return false };
        let Some(line) = lines.iter().find(|l| self.copies.get(*l).is_some_and(|n| *n > 0)).cloned() else {
            return false;
        };
        self.take(&line)
    }
}

impl<'a> TakenOut<'a> {
    /// The lines taken out of `changed` since the start commit `start`, not
    /// yet read.
    pub fn new(repo: &'a Repo, start: Option<&'a str>, changed: &'a [RepoPath]) -> Self {
        Self { repo, start, changed, left: None, drawn: 0 }
    }

    /// Whether `line` (the space around it aside) is one the change took
    /// out, a copy not yet drawn: it is then drawn, and adds nothing. A
    /// blank line is never one.
    pub fn draw(&mut self, line: &[u8]) -> bool {
        let line = line.trim_ascii();
        if line.is_empty() {
            return false;
        }
        let left = self.left.get_or_insert_with(|| read(self.repo, self.start, self.changed));
        let drawn = left.take(line);
        self.drawn += usize::from(drawn);
        drawn
    }

    /// As [`Self::draw`] for a line inside a test item, where lines are
    /// compared with their trailing comments cut: `line` or `code` (the
    /// line's code, [`code_of_lines`]) drawn as a line taken out, or as the
    /// code of one. A line whose code is empty (only a comment) is drawn
    /// by its words alone.
    pub fn draw_code(&mut self, line: &[u8], code: &[u8]) -> bool {
        if self.draw(line) {
            return true;
        }
        let code = code.trim_ascii();
        if code.is_empty() {
            return false;
        }
        let left = self.left.get_or_insert_with(|| read(self.repo, self.start, self.changed));
        let drawn = left.take(code) || left.take_by_code(code);
        self.drawn += usize::from(drawn);
        drawn
    }

    /// How many lines added were drawn as moved so far.
    pub fn drawn(&self) -> usize {
        self.drawn
    }
}

impl std::fmt::Debug for TakenOut<'_> {
    /// The repository aside: what was read and drawn.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TakenOut")
            .field("start", &self.start)
            .field("changed", &self.changed.len())
            .field("read", &self.left.is_some())
            .field("drawn", &self.drawn)
            .finish()
    }
}

/// The copies of lines each of `changed` held in the start commit past
/// those it holds now (all of them for a path deleted, from the index
/// whatever the disk holds): the lines the change took out, each with its
/// code where its language cuts a trailing comment. A path the start did
/// not hold takes out nothing.
fn read(repo: &Repo, start: Option<&str>, changed: &[RepoPath]) -> Pool {
    let mut left = Pool::default();
    // An index that cannot be read is taken as holding every path: what
    // the disk holds then stands for what the change holds. The one
    // `check` parsed already is asked (its entries sorted by path); through
    // libgit2, which loads and checks the whole file again (26 M
    // instructions on git's own repository), only where that reader
    // does not read it.
    let parsed = repo.index_file().ok();
    let index = if parsed.is_some() { None } else { repo.git.index().ok() };
    let in_index = |path: &RepoPath| match (&parsed, &index) {
        (Some(i), _) => i.entries.binary_search_by(|e| e.path(&i.paths).cmp(path.as_bytes())).is_ok(),
        (None, Some(i)) => (0..=3).any(|stage| i.get_path(as_path(path), stage).is_some()),
        (None, None) => true,
    };
    let Some(tree) = start
        .and_then(|s| git2::Oid::from_str(s).ok())
        .and_then(|o| repo.git.find_commit(o).ok())
        .and_then(|c| c.tree().ok())
    else {
        return left;
    };
    for path in changed {
        let Ok(entry) = tree.get_path(as_path(path)) else {
            continue;
        };
        let Some(then) = entry.to_object(&repo.git).ok().and_then(|o| o.into_blob().ok()) else { continue };
        if then.size() as u64 > MAX_FILE_BYTES || binary(then.content()) {
            continue;
        }
        let now = if in_index(path) { file_now(repo, path) } else { Some(Vec::new()) };
        let Some(now) = now else { continue };
        let mut held = copies(then.content());
        for (line, n) in copies(&now) {
            if let Some(m) = held.get_mut(&line) {
                *m = m.saturating_sub(n);
            }
        }
        let held: BTreeMap<Vec<u8>, usize> = held.into_iter().filter(|(_, n)| *n > 0).collect();
        if let Some(language) = path.to_str().and_then(Language::of).filter(|_| !held.is_empty()) {
            let raw = then.content().split(|c| *c == b'\n').map(<[u8]>::trim_ascii);
            for (line, code) in raw.zip(code_of_lines(then.content(), Some(language))) {
                if !code.is_empty() && code != line && held.contains_key(line) {
                    let lines = left.by_code.entry(code).or_default();
                    if !lines.iter().any(|l| l == line) {
                        lines.push(line.to_vec());
                    }
                }
            }
        }
        for (line, n) in held {
            *left.copies.entry(line).or_insert(0) += n;
        }
    }
    left
}

/// `path` as a path to look up in the index or a tree.
fn as_path(path: &RepoPath) -> &std::path::Path {
    std::path::Path::new(std::ffi::OsStr::from_bytes(path.as_bytes()))
}

/// What the working tree holds at `path` now as lines to compare, for a
/// path the index holds: empty where it holds no regular file (deleted,
/// or a link), `None` where what it holds cannot be read or is not text,
/// so what was taken out of it cannot be told.
fn file_now(repo: &Repo, path: &RepoPath) -> Option<Vec<u8>> {
    let Some(full) = majordomus_readings::file::in_tree(repo.root(), path) else { return Some(Vec::new()) };
    match std::fs::symlink_metadata(&full) {
        Ok(m) if m.is_file() && m.len() <= MAX_FILE_BYTES => {
            majordomus_readings::file::read(&full).ok().filter(|b| !binary(b))
        }
        Ok(m) if m.is_file() => None,
        _ => Some(Vec::new()),
    }
}

/// Content with a NUL in its first bytes, as git tells binary content.
fn binary(b: &[u8]) -> bool {
    b.iter().take(8000).any(|c| *c == 0)
}

/// Each line of `text` that is not blank, without the space around it,
/// with how many times it occurs.
fn copies(text: &[u8]) -> BTreeMap<Vec<u8>, usize> {
    let mut out = BTreeMap::new();
    for line in text.split(|c| *c == b'\n').map(<[u8]>::trim_ascii).filter(|l| !l.is_empty()) {
        *out.entry(line.to_vec()).or_insert(0) += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_line_taken_out_is_drawn_once_per_copy_and_a_line_kept_is_not_one() {
        let t = TestRepo::with_commit();
        t.write("tests/old.rs", "#[test]\nfn old() {\n    assert_eq!(1, 1);\n}\n");
        t.write("src/lib.rs", "pub fn a() {}\n#[test]\nfn kept() {}\n");
        let start = t.commit_all("start");
        t.remove("tests/old.rs");
        t.write("src/lib.rs", "pub fn a() {}\n");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let changed: Vec<RepoPath> = vec!["src/lib.rs".into(), "tests/old.rs".into(), "tests/new.rs".into()];
        let mut out = TakenOut::new(&repo, Some(&start), &changed);
        assert!(out.draw(b"\tassert_eq!(1, 1);"), "taken out of a deleted path, re-indented");
        assert!(!out.draw(b"assert_eq!(1, 1);"), "one copy taken out, one drawn");
        assert!(out.draw(b"#[test]") && out.draw(b"#[test]"), "one copy from each path");
        assert!(!out.draw(b"#[test]"));
        assert!(out.draw(b"fn kept() {}"), "taken out of a path modified");
        assert!(!out.draw(b"pub fn a() {}"), "still held where it was");
        assert!(!out.draw(b"assert_eq!(2, 2);") && !out.draw(b"  "));
        assert_eq!(out.drawn(), 4);
        assert!(!TakenOut::new(&repo, None, &changed).draw(b"#[test]"), "no start, nothing held");
    }

    #[test]
    fn a_path_the_index_no_longer_holds_gave_up_its_lines_whatever_the_disk_holds() {
        let t = TestRepo::with_commit();
        t.write("tests/gen.rs", "#[test]\nfn old() {\n    assert_eq!(1, 1);\n}\n");
        let start = t.commit_all("start");
        t.git(&["rm", "-q", "--cached", "tests/gen.rs"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let changed: Vec<RepoPath> = vec!["tests/gen.rs".into()];
        let mut out = TakenOut::new(&repo, Some(&start), &changed);
        assert!(out.draw(b"assert_eq!(1, 1);"), "untracked, left on disk: taken out");
    }

    #[test]
    fn in_a_test_item_a_line_is_drawn_by_its_code_its_trailing_comment_cut() {
        let t = TestRepo::with_commit();
        t.write("tests/old.rs", "#[test]\nfn old() { // the old one\n    assert_eq!(1, 1);\n}\n");
        let start = t.commit_all("start");
        t.remove("tests/old.rs");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let changed: Vec<RepoPath> = vec!["tests/old.rs".into()];
        let mut out = TakenOut::new(&repo, Some(&start), &changed);
        assert!(!out.draw(b"fn old() {"), "a test path compares whole lines");
        assert!(out.draw_code(b"fn old() {", b"fn old() {"), "the code of a line taken out");
        assert!(!out.draw_code(b"fn old() { // again", b"fn old() {"), "one copy, drawn once");
        assert!(out.draw_code(b"assert_eq!(1, 1); // moved", b"assert_eq!(1, 1);"), "a comment appended");
        assert!(!out.draw_code(b"// only words", b""));
        assert_eq!(out.drawn(), 2);
    }
}
