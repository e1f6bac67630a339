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
//! Read only for a test path that would otherwise count, and no more than
//! settles it. Ids first: a scan of the index `check` already parsed (its
//! entries' blob ids, compared), then the ids the start's and HEAD's trees
//! record for the changed paths outside a test path (no blob read), then
//! those paths' files in the working tree, read only where one is the test
//! file's size. Ids settle a copy of the same bytes, never that a file is
//! no copy: one re-indented has other ids. Only then are lines compared,
//! the test path's against each such content (read once for all test
//! paths, each at most [`MAX_FILE_BYTES`]), stopping at the first line
//! that differs. Nothing is read where no test path changed.

use std::os::unix::ffi::OsStrExt;

use majordomus_readings::Repo;
use majordomus_records::RepoPath;

use super::test_code::MAX_FILE_BYTES;
use super::test_path::TestRules;

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
    /// Each changed path outside a test path with the blob ids the start's
    /// and HEAD's trees record there.
    ids: Option<Vec<(RepoPath, Vec<git2::Oid>)>>,
    /// Each such path with each content it held (at the start, in HEAD,
    /// now) that is text of at most [`MAX_FILE_BYTES`].
    texts: Option<Vec<(RepoPath, Vec<u8>)>>,
}

impl<'a> Copies<'a> {
    /// Nothing read yet.
    pub fn new(repo: &'a Repo, start: Option<&'a str>, changed: &'a [RepoPath], rules: &'a TestRules) -> Self {
        Self { repo, start, changed, rules, ids: None, texts: None }
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
        let text = text?;
        // The same bytes as a content of a changed path: only text of at
        // most MAX_FILE_BYTES is one (the test file's bytes are its).
        if let Some(id) = id.filter(|_| is_text(text)) {
            if let Some(from) = self.same_bytes(id, text) {
                return Some(Copy::Source(from));
            }
        }
        let want = lines(text);
        if want.is_empty() {
            return None;
        }
        let (repo, start, changed, rules) = (self.repo, self.start, self.changed, self.rules);
        let ids = self.ids.get_or_insert_with(|| tree_ids(repo, start, changed, rules));
        let texts = self.texts.get_or_insert_with(|| read(repo, ids));
        texts.iter().find(|(_, bytes)| same_lines(&want, bytes)).map(|(from, _)| Copy::Source(from.clone()))
    }

    /// The first changed path outside a test path whose content at the
    /// start, in HEAD or now is the bytes `text` (blob id `id`): the trees'
    /// ids compared, a file of the working tree read only where it is
    /// `text`'s size.
    fn same_bytes(&mut self, id: git2::Oid, text: &[u8]) -> Option<RepoPath> {
        let (repo, start, changed, rules) = (self.repo, self.start, self.changed, self.rules);
        let ids = self.ids.get_or_insert_with(|| tree_ids(repo, start, changed, rules));
        for (path, held) in ids.iter() {
            if held.contains(&id) {
                return Some(path.clone());
            }
            let Some(full) = majordomus_readings::file::in_tree(repo.root(), path) else { continue };
            if std::fs::symlink_metadata(&full).is_ok_and(|m| m.is_file() && m.len() == text.len() as u64)
                && majordomus_readings::file::read(&full).is_ok_and(|bytes| bytes == text)
            {
                return Some(path.clone());
            }
        }
        None
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
        f.debug_struct("Copies")
            .field("changed", &self.changed.len())
            .field("ids", &self.ids.is_some())
            .field("texts", &self.texts.is_some())
            .finish()
    }
}

/// Text of at most [`MAX_FILE_BYTES`]: no NUL in its first 8,000 bytes.
fn is_text(bytes: &[u8]) -> bool {
    bytes.len() as u64 <= MAX_FILE_BYTES && !bytes.iter().take(8000).any(|c| *c == 0)
}

/// Each of `changed` outside a test path, with the blob ids the start's
/// and HEAD's trees record there, each once (no blob read; HEAD's tree
/// not looked into where it is the start's).
fn tree_ids(
    repo: &Repo,
    start: Option<&str>,
    changed: &[RepoPath],
    rules: &TestRules,
) -> Vec<(RepoPath, Vec<git2::Oid>)> {
    let start = start
        .and_then(|s| git2::Oid::from_str(s).ok())
        .and_then(|o| repo.git.find_commit(o).ok())
        .and_then(|c| c.tree().ok());
    let head = repo.git.head().ok().and_then(|h| h.peel_to_tree().ok());
    let head = head.filter(|h| start.as_ref().map_or(true, |s| s.id() != h.id()));
    let trees = [start, head];
    let blob_in = |tree: &git2::Tree<'_>, path: &RepoPath| {
        let entry = tree.get_path(std::path::Path::new(std::ffi::OsStr::from_bytes(path.as_bytes()))).ok()?;
        (entry.kind() == Some(git2::ObjectType::Blob)).then(|| entry.id())
    };
    let mut out = Vec::new();
    for path in changed.iter().filter(|p| !rules.is_test(p)) {
        let mut ids = Vec::with_capacity(2);
        for id in trees.iter().flatten().filter_map(|t| blob_in(t, path)) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        out.push((path.clone(), ids));
    }
    out
}

/// Each path of `held`, with each content it held (its blobs, the working
/// tree's file now) that is text of at most [`MAX_FILE_BYTES`].
fn read(repo: &Repo, held: &[(RepoPath, Vec<git2::Oid>)]) -> Vec<(RepoPath, Vec<u8>)> {
    let mut out = Vec::new();
    for (path, ids) in held {
        for id in ids {
            if let Some(blob) = repo.git.find_blob(*id).ok().filter(|b| is_text(b.content())) {
                out.push((path.clone(), blob.content().to_vec()));
            }
        }
        let Some(full) = majordomus_readings::file::in_tree(repo.root(), path) else { continue };
        if std::fs::symlink_metadata(&full).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE_BYTES) {
            if let Ok(bytes) = majordomus_readings::file::read(&full) {
                if is_text(&bytes) && !out.iter().any(|(p, b)| p == path && *b == bytes) {
                    out.push((path.clone(), bytes));
                }
            }
        }
    }
    out
}

/// Whether `bytes` read as [`lines`] are `want`, compared a line at a time
/// and stopped at the first that differs.
fn same_lines(want: &[Vec<u8>], bytes: &[u8]) -> bool {
    let text = super::readings::as_text(bytes);
    let mut got = text.split(|c| *c == b'\n').map(<[u8]>::trim_ascii).filter(|l| !l.is_empty());
    want.iter().all(|w| got.next() == Some(w.as_slice())) && got.next().is_none()
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

    #[test]
    fn the_starts_bytes_of_a_changed_source_are_a_copy_by_their_id_alone() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "pub fn a() -> u8 {\n    1\n}\n");
        let start = t.commit_all("start");
        t.write("src/lib.rs", "pub fn a() -> u8 {\n    2\n}\n");
        t.write("tests/was.rs", "pub fn a() -> u8 {\n    1\n}\n");
        t.git(&["add", "-A"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let rules = TestRules::default();
        let changed: Vec<RepoPath> = ["src/lib.rs", "tests/was.rs"].into_iter().map(RepoPath::from).collect();
        let mut copies = Copies::new(&repo, Some(&start), &changed, &rules);
        let bytes = std::fs::read(t.path().join("tests/was.rs")).expect("read");
        let id = git2::Oid::hash_object(git2::ObjectType::Blob, &bytes).ok();
        assert_eq!(
            copies.of(&RepoPath::from("tests/was.rs"), id, Some(&bytes)),
            Some(Copy::Source("src/lib.rs".into()))
        );
        assert!(copies.texts.is_none(), "settled by ids, no content read");
    }

    #[test]
    fn lines_are_the_same_where_each_is_without_its_space_and_no_more_follow() {
        let want = lines(b"a\n  b\n");
        assert!(same_lines(&want, b"a\r\n\n\tb\r\n"));
        assert!(same_lines(&want, b"\xEF\xBB\xBFa\nb"));
        assert!(!same_lines(&want, b"a\nb\nc\n"), "a line more");
        assert!(!same_lines(&want, b"a\n"), "a line fewer");
        assert!(!same_lines(&want, b"b\na\n"), "in another order");
    }
}
