//! A test path holding a copy of another file writes no test
//! (test/cases/620, 623).
//!
//! `cp src/lib.rs tests/lib_test.rs` puts at a test path lines the start
//! never held there, yet no line of test: the source's own. Nor does
//! `cp tests/a_test.rs tests/b_test.rs` write one: the start's test runs
//! twice. Whether a file tests anything is not judged (README's limits);
//! what it is a copy of is read, by what git already records:
//!
//! - its blob is one the index holds at another path, outside a test path,
//!   or at a test path the change did not touch (so as the start held it);
//! - or it is the content of a path the change holds outside a test path,
//!   in the start commit, in HEAD or in the working tree now, its lines
//!   compared as a test path's are (each without the space around it,
//!   blank ones aside, so a copy re-indented or with other line endings is
//!   one).
//!
//! Read only for a test path that would otherwise count, once for all of
//! them: a scan of the index `check` already parsed (its entries' blob
//! ids, compared), and the changed paths outside a test path, each read
//! at most [`MAX_FILE_BYTES`]. Nothing is read where no test path changed.

use std::os::unix::ffi::OsStrExt;

use majordomus_readings::Repo;
use majordomus_records::RepoPath;

use super::test_code::MAX_FILE_BYTES;
use super::test_path::TestRules;

/// A path outside a test path, a blob id it held and its lines to compare.
type Held = (RepoPath, git2::Oid, Vec<Vec<u8>>);

/// What a test path's content is a copy of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Copy {
    /// A file outside a test path: a source, a document, anything.
    Source(RepoPath),
    /// A test path the change did not touch: a test the start held.
    Test(RepoPath),
}

/// The files a test path may be a copy of, read on the first ask.
pub struct Copies<'a> {
    repo: &'a Repo,
    start: Option<&'a str>,
    changed: &'a [RepoPath],
    rules: &'a TestRules,
    /// Each changed path outside a test path with a content it held (at
    /// the start, in HEAD, now): its blob id and its lines to compare.
    read: Option<Vec<Held>>,
}

impl<'a> Copies<'a> {
    /// Nothing read yet.
    pub fn new(repo: &'a Repo, start: Option<&'a str>, changed: &'a [RepoPath], rules: &'a TestRules) -> Self {
        Self { repo, start, changed, rules, read: None }
    }

    /// What the content at the test path `path` (its blob id `id`, its
    /// text `text` where it was read, as [`lines`] compares it) is a copy
    /// of, if anything.
    pub fn of(&mut self, path: &RepoPath, id: Option<git2::Oid>, text: Option<&[u8]>) -> Option<Copy> {
        if let Some(id) = id {
            if let Some(found) = self.in_index(path, id) {
                return Some(found);
            }
        }
        let read = self.read.get_or_insert_with(|| read(self.repo, self.start, self.changed, self.rules));
        if let Some(id) = id {
            if let Some((from, _, _)) = read.iter().find(|(_, b, _)| *b == id) {
                return Some(Copy::Source(from.clone()));
            }
        }
        let text = lines(text?);
        if text.is_empty() {
            return None;
        }
        read.iter().find(|(_, _, l)| *l == text).map(|(from, _, _)| Copy::Source(from.clone()))
    }

    /// A path of the index, other than `path`, holding the blob `id`: one
    /// outside a test path, or a test path the change did not touch.
    fn in_index(&self, path: &RepoPath, id: git2::Oid) -> Option<Copy> {
        let index = self.repo.index_file().ok()?;
        let mut test = None;
        for entry in index.entries.iter().filter(|e| e.id == id && e.mode & 0o170000 == 0o100000) {
            let at = RepoPath::from_bytes(entry.path(&index.paths));
            if at == *path {
                continue;
            }
            if !self.rules.is_test(&at) {
                return Some(Copy::Source(at));
            }
            if test.is_none() && self.changed.binary_search(&at).is_err() {
                test = Some(Copy::Test(at));
            }
        }
        test
    }
}

impl std::fmt::Debug for Copies<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Copies").field("changed", &self.changed.len()).field("read", &self.read.is_some()).finish()
    }
}

/// Each of `changed` outside a test path, with each content it held (the
/// start commit's, HEAD's, the working tree's now), text of at most
/// [`MAX_FILE_BYTES`].
fn read(repo: &Repo, start: Option<&str>, changed: &[RepoPath], rules: &TestRules) -> Vec<Held> {
    let start = start
        .and_then(|s| git2::Oid::from_str(s).ok())
        .and_then(|o| repo.git.find_commit(o).ok())
        .and_then(|c| c.tree().ok());
    let head = repo.git.head().ok().and_then(|h| h.peel_to_tree().ok());
    let mut out: Vec<Held> = Vec::new();
    let mut add = |path: &RepoPath, bytes: &[u8]| {
        if bytes.len() as u64 > MAX_FILE_BYTES || bytes.iter().take(8000).any(|c| *c == 0) {
            return;
        }
        let Ok(id) = git2::Oid::hash_object(git2::ObjectType::Blob, bytes) else { return };
        if out.iter().any(|(p, b, _)| p == path && *b == id) {
            return;
        }
        out.push((path.clone(), id, lines(bytes)));
    };
    for path in changed.iter().filter(|p| !rules.is_test(p)) {
        let at = std::path::Path::new(std::ffi::OsStr::from_bytes(path.as_bytes()));
        for tree in [&start, &head].into_iter().flatten() {
            let blob =
                tree.get_path(at).ok().and_then(|e| e.to_object(&repo.git).ok()).and_then(|o| o.into_blob().ok());
            if let Some(blob) = blob.filter(|b| b.size() as u64 <= MAX_FILE_BYTES) {
                add(path, blob.content());
            }
        }
        let Some(full) = majordomus_readings::file::in_tree(repo.root(), path) else { continue };
        if std::fs::symlink_metadata(&full).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE_BYTES) {
            if let Ok(bytes) = majordomus_readings::file::read(&full) {
                add(path, &bytes);
            }
        }
    }
    out
}

/// The lines of `text` as a test path's are compared: decoded as text
/// (a byte order mark, UTF-16), each without the space around it, blank
/// ones aside.
pub fn lines(text: &[u8]) -> Vec<Vec<u8>> {
    let text = super::readings::as_text(text);
    text.split(|c| *c == b'\n').map(<[u8]>::trim_ascii).filter(|l| !l.is_empty()).map(<[u8]>::to_vec).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_test_path_holding_a_source_files_content_or_an_untouched_tests_is_a_copy() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "pub fn a() -> u8 {\n    1\n}\n");
        t.write("src/util.rs", "pub fn u() {}\n");
        t.write("tests/old.rs", "#[test]\nfn old() {}\n");
        let start = t.commit_all("start");
        t.write("src/lib.rs", "pub fn a() -> u8 {\n    2\n}\n");
        t.write("tests/util_copy.rs", "pub fn u() {}\n");
        t.write("tests/old_copy.rs", "#[test]\nfn old() {}\n");
        t.write("tests/lib_copy.rs", "pub fn a() -> u8 {\r\n2\r\n}\r\n\r\n");
        t.write("tests/new.rs", "#[test]\nfn new() { assert_eq!(lib::a(), 2); }\n");
        t.git(&["add", "-A"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let rules = TestRules::default();
        let changed: Vec<RepoPath> =
            ["src/lib.rs", "tests/lib_copy.rs", "tests/new.rs", "tests/old_copy.rs", "tests/util_copy.rs"]
                .into_iter()
                .map(RepoPath::from)
                .collect();
        let mut copies = Copies::new(&repo, Some(&start), &changed, &rules);
        let mut of = |p: &str| {
            let bytes = std::fs::read(t.path().join(p)).expect("read");
            let id = git2::Oid::hash_object(git2::ObjectType::Blob, &bytes).ok();
            copies.of(&RepoPath::from(p), id, Some(&bytes))
        };
        assert_eq!(of("tests/util_copy.rs"), Some(Copy::Source("src/util.rs".into())), "an unchanged source");
        assert_eq!(of("tests/old_copy.rs"), Some(Copy::Test("tests/old.rs".into())), "a test the start held");
        assert_eq!(of("tests/lib_copy.rs"), Some(Copy::Source("src/lib.rs".into())), "the fix, other spaces");
        assert_eq!(of("tests/new.rs"), None, "a test written");
    }
}
