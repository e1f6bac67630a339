//! The fast path of [`crate::status::read`]: see that module's essay.

use std::collections::{BTreeSet, HashSet};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use git2::{Oid, Status};
use majordomus_records::paths::is_own_state;

use crate::index_file::{self, Entry};
use crate::status::{read_with_libgit2, Dirty, WorkingTree};
use crate::{Reading, Repo, Unread};

const MODE_MASK: u32 = 0o170000;
const MODE_LINK: u32 = 0o120000;
const MODE_GITLINK: u32 = 0o160000;
const SKIP_WORKTREE: u16 = 1 << 14;
const INTENT_TO_ADD: u16 = 1 << 13;

/// The index and its differences from HEAD, read through libgit2.
type Staged = (Vec<Entry>, Vec<String>, HashSet<String>);

fn through_libgit2(repo: &Repo, head_tree: Option<&git2::Tree<'_>>) -> Reading<Staged> {
    let index = repo.git.index().map_err(|e| Unread::git("the index", &e))?;
    let entries = index
        .iter()
        .map(|e| Entry {
            ctime: (e.ctime.seconds() as u32, e.ctime.nanoseconds()),
            mtime: (e.mtime.seconds() as u32, e.mtime.nanoseconds()),
            ino: e.ino,
            mode: e.mode,
            size: e.file_size,
            id: e.id,
            stage: ((e.flags >> 12) & 0x3) as u8,
            skip_worktree: e.flags_extended & SKIP_WORKTREE != 0,
            intent_to_add: e.flags_extended & INTENT_TO_ADD != 0,
            path: e.path,
        })
        .collect();
    let mut opts = git2::DiffOptions::new();
    opts.include_typechange(true);
    let diff = repo
        .git
        .diff_tree_to_index(head_tree, Some(&index), Some(&mut opts))
        .map_err(|e| Unread::git("the index against HEAD", &e))?;
    let mut staged = Vec::new();
    let mut removed = HashSet::new();
    for delta in diff.deltas() {
        let file = if delta.new_file().exists() { delta.new_file() } else { delta.old_file() };
        let Some(path) = file.path().map(|p| p.to_string_lossy().into_owned()) else { continue };
        if delta.status() == git2::Delta::Deleted {
            removed.insert(path.clone());
        }
        staged.push(path);
    }
    Ok((entries, staged, removed))
}

/// What the stat pass found for one index entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    Clean,
    Modified,
    Deleted,
    /// Not settled here: libgit2 answers for this path.
    Ask,
}

pub fn read(repo: &Repo) -> Reading<WorkingTree> {
    let config = repo.git.config().and_then(|mut c| c.snapshot()).map_err(|e| Unread::git("the configuration", &e))?;
    let flag = |key: &str, default: bool| config.get_bool(key).unwrap_or(default);
    let sha256 = config.get_string("extensions.objectformat").is_ok_and(|f| f != "sha1");
    if sha256 || flag("core.ignorecase", false) || !flag("core.symlinks", true) {
        return read_with_libgit2(repo);
    }
    let filemode = flag("core.filemode", true);
    let sparse = flag("core.sparsecheckout", false);

    let head_tree = match repo.git.head() {
        Ok(h) => Some(h.peel_to_tree().map_err(|e| Unread::git("HEAD's tree", &e))?),
        Err(e) if e.code() == git2::ErrorCode::UnbornBranch || e.code() == git2::ErrorCode::NotFound => None,
        Err(e) => return Err(Unread::git("HEAD", &e)),
    };
    // The index, and the paths where it differs from HEAD: read directly
    // where this reader knows the index, else through libgit2.
    let read_directly = repo.index_file();
    let from_libgit2;
    let (entries, staged, removed_from_index): (&[Entry], _, _) = match &read_directly {
        Ok(index) => {
            let (staged, removed) = index_file::staged(&repo.git, head_tree.as_ref(), index)
                .map_err(|e| Unread::git("the index against HEAD", &e))?;
            (&index.entries, staged, removed)
        }
        Err(_) => {
            let (entries, staged, removed) = through_libgit2(repo, head_tree.as_ref())?;
            from_libgit2 = entries;
            (&from_libgit2, staged, removed)
        }
    };
    let index_mtime = std::fs::metadata(repo.git_dir().join("index"))
        .ok()
        .map(|m| (m.mtime(), m.mtime_nsec()))
        .unwrap_or((i64::MAX, 0));
    // Content is compared raw; where a filter could change it, libgit2 decides.
    let filters_possible = config.get_string("core.autocrlf").map(|v| v != "false").unwrap_or(false)
        || config.get_string("core.eol").is_ok()
        || repo.git_dir().join("info/attributes").exists()
        || config.get_string("core.attributesfile").is_ok()
        || global_attributes_exist()
        || entries.iter().any(|e| e.path.ends_with(b".gitattributes"));
    let mut dirty: BTreeSet<String> = staged.into_iter().collect();

    let mut conflicted: BTreeSet<String> = BTreeSet::new();
    let mut stage0: Vec<&Entry> = Vec::with_capacity(entries.len());
    for e in entries {
        if e.stage != 0 {
            conflicted.insert(String::from_utf8_lossy(&e.path).into_owned());
        } else {
            stage0.push(e);
        }
    }

    let root = repo.root();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8);
    let chunk = stage0.len().div_ceil(workers).max(1);
    let (found, untracked) = std::thread::scope(|scope| {
        let handles: Vec<_> = stage0
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut stater = Stater::new(root);
                    part.iter()
                        .map(|e| compare(&mut stater, e, index_mtime, filemode, sparse, filters_possible))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        // While the workers stat, this thread walks for untracked files.
        let untracked = walk(repo, entries);
        let found: Vec<Found> = handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect();
        (found, untracked)
    });
    if found.len() != stage0.len() {
        return read_with_libgit2(repo);
    }
    let mut untracked = untracked?;

    let mut deleted: BTreeSet<String> = BTreeSet::new();
    for (e, f) in stage0.iter().zip(found) {
        if f == Found::Clean {
            continue;
        }
        let path = String::from_utf8_lossy(&e.path).into_owned();
        match f {
            Found::Clean => {}
            Found::Modified => {
                dirty.insert(path);
            }
            Found::Deleted => {
                deleted.insert(path.clone());
                dirty.insert(path);
            }
            Found::Ask => {
                let s = repo
                    .git
                    .status_file(Path::new(&path))
                    .map_err(|e| Unread::git(&format!("the status of {path}"), &e))?;
                if s.intersects(Status::WT_MODIFIED | Status::WT_DELETED | Status::WT_TYPECHANGE | Status::WT_RENAMED) {
                    if s.contains(Status::WT_DELETED) {
                        deleted.insert(path.clone());
                    }
                    dirty.insert(path);
                }
            }
        }
    }

    let mut tree = WorkingTree::default();
    for path in dirty {
        if is_own_state(&path) || conflicted.contains(&path) {
            continue;
        }
        // stage0 is sorted by path, as the index is: a binary search, not a
        // map of every entry for the few that are dirty.
        let index =
            stage0.binary_search_by(|e| e.path.as_slice().cmp(path.as_bytes())).ok().map(|i| stage0[i].id.to_string());
        tree.dirty.push(Dirty { deleted: deleted.contains(&path), index, path });
    }
    untracked.retain(|p| !removed_from_index.contains(p) && !conflicted.contains(p));
    untracked.sort();
    tree.untracked = untracked;
    tree.conflicted = conflicted.into_iter().filter(|p| !is_own_state(p)).collect();
    Ok(tree)
}

/// Whether the user-wide attributes file git reads by default exists
/// (`$XDG_CONFIG_HOME/git/attributes`, else `~/.config/git/attributes`).
fn global_attributes_exist() -> bool {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config")));
    base.is_some_and(|b| b.join("git/attributes").exists())
}

/// `lstat` relative to the file's directory, opened once for the run of
/// entries it holds (the index is sorted by path): one path component for
/// the kernel to look up per file instead of the whole path.
struct Stater<'a> {
    root: &'a Path,
    dir: Option<(Vec<u8>, Option<rustix::fd::OwnedFd>)>,
}

impl<'a> Stater<'a> {
    fn new(root: &'a Path) -> Self {
        Self { root, dir: None }
    }

    fn lstat(&mut self, rel: &str) -> rustix::io::Result<rustix::fs::Stat> {
        use rustix::fs::{AtFlags, Mode, OFlags, CWD};
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        if self.dir.as_ref().map(|(d, _)| d.as_slice()) != Some(dir.as_bytes()) {
            let path = self.root.join(dir);
            let fd = match rustix::fs::openat(
                CWD,
                &path,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            ) {
                Ok(fd) => Some(fd),
                Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) => None,
                Err(e) => return Err(e),
            };
            self.dir = Some((dir.as_bytes().to_vec(), fd));
        }
        match &self.dir {
            Some((_, Some(fd))) => rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW),
            _ => Err(rustix::io::Errno::NOENT),
        }
    }
}

/// Compares one index entry with its file, as git's stat check does; reads
/// the content only when the stat data cannot settle it.
///
/// A skip-worktree entry is settled as git settles it, not asked of
/// libgit2, which takes every such file that is absent for deleted: absent,
/// it is clean (a sparse checkout leaves it out on purpose); present, it is
/// compared like any other when `core.sparseCheckout` is on (git clears the
/// bit of a file that appears in a sparse checkout, so an edit outside the
/// cone shows), and clean when it is off (a plain `update-index
/// --skip-worktree` asks git to ignore the file's changes).
// The `stat` field types differ between platforms: the casts are needed on some.
#[allow(clippy::unnecessary_cast)]
fn compare(
    stater: &mut Stater<'_>,
    e: &Entry,
    index_mtime: (i64, i64),
    filemode: bool,
    sparse: bool,
    filters_possible: bool,
) -> Found {
    use rustix::fs::FileType;
    let mode = e.mode & MODE_MASK;
    if mode == MODE_GITLINK || e.intent_to_add {
        return Found::Ask;
    }
    if e.skip_worktree && !sparse {
        return Found::Clean;
    }
    let Ok(rel) = std::str::from_utf8(&e.path) else { return Found::Ask };
    let st = match stater.lstat(rel) {
        Ok(st) => st,
        Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) if e.skip_worktree => return Found::Clean,
        Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) => return Found::Deleted,
        Err(_) => return Found::Ask,
    };
    let kind = FileType::from_raw_mode(st.st_mode);
    let is_symlink = kind == FileType::Symlink;
    if kind == FileType::Directory {
        // A tracked file whose place a directory took: the file is gone.
        return if e.skip_worktree { Found::Clean } else { Found::Deleted };
    }
    if !is_symlink && kind != FileType::RegularFile {
        // A FIFO, socket or device where a file was: git's status calls it
        // modified. Its content is never read (opening a FIFO waits for a writer).
        return Found::Modified;
    }
    if (mode == MODE_LINK) != is_symlink {
        return Found::Modified;
    }
    if filemode && mode != MODE_LINK && (e.mode & 0o100) != (st.st_mode & 0o100) {
        return Found::Modified;
    }
    // Index times are 32-bit seconds and nanoseconds; a nanosecond part of 0
    // is a writer that kept none, compared to the second.
    let same_time = |secs: i64, nsecs: i64, (s, ns): (u32, u32)| {
        i64::from(s) == (secs & 0xffff_ffff) && (ns == 0 || i64::from(ns) == nsecs)
    };
    let stat_clean = (e.size as i64) == (st.st_size as i64 & 0xffff_ffff)
        && same_time(st.st_mtime as i64, st.st_mtime_nsec as i64, e.mtime)
        && same_time(st.st_ctime as i64, st.st_ctime_nsec as i64, e.ctime)
        && (e.ino == 0 || u64::from(e.ino) == (st.st_ino as u64 & 0xffff_ffff));
    let racy = (i64::from(e.mtime.0), i64::from(e.mtime.1)) >= index_mtime;
    if stat_clean && !racy {
        return Found::Clean;
    }
    let path = stater.root.join(rel);
    let id = if is_symlink {
        std::fs::read_link(&path)
            .ok()
            .and_then(|t| Oid::hash_object(git2::ObjectType::Blob, t.as_os_str().as_encoded_bytes()).ok())
    } else {
        crate::file::blob_id(&path).ok()
    };
    match id {
        Some(id) if id == e.id => Found::Clean,
        Some(_) if !filters_possible => Found::Modified,
        _ => Found::Ask,
    }
}

/// Every untracked, non-ignored file, as `status -uall` lists them: a walk
/// of the working tree that descends only into directories holding tracked
/// files or not ignored, never into `.git`, never following a symlink.
///
/// `entries` is the index, sorted by path as the index file keeps it (the
/// reader refuses one out of order): the entries under a directory are one
/// run of it, so each name the walk meets is looked up by a binary search
/// in its directory's run, a few entries that sit together in memory,
/// rather than hashed into a set of every path.
fn walk(repo: &Repo, entries: &[Entry]) -> Reading<Vec<String>> {
    let mut out = Vec::new();
    // A directory to list, and the run of entries under it.
    let mut stack: Vec<(String, &[Entry])> = vec![(String::new(), entries)];
    let mut rel = String::new();
    while let Some((dir, under)) = stack.pop() {
        let full = repo.root().join(&dir);
        let listing = match std::fs::read_dir(&full) {
            Ok(l) => l,
            Err(e) => return Err(Unread::io(format!("could not list {}: {e}", full.display()))),
        };
        for entry in listing {
            let entry = entry.map_err(|e| Unread::io(format!("could not list {}: {e}", full.display())))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                // Named with its bytes escaped, so that the user can find it.
                let escaped = escape_non_utf8(name.as_encoded_bytes());
                let rel = if dir.is_empty() { escaped } else { format!("{dir}/{escaped}") };
                return Err(Unread::repository(format!(
                    "a path under {} is not UTF-8: {rel} (its bytes escaped)",
                    full.display()
                )));
            };
            if name == ".git" {
                continue;
            }
            rel.clear();
            if !dir.is_empty() {
                rel.push_str(&dir);
                rel.push('/');
            }
            rel.push_str(name);
            if is_own_state(&rel) {
                continue;
            }
            let kind = entry.file_type().map_err(|e| Unread::io(format!("could not read {rel}: {e}")))?;
            let exact = under.binary_search_by(|e| e.path.as_slice().cmp(rel.as_bytes())).ok().map(|i| &under[i]);
            if kind.is_dir() {
                if exact.is_some_and(|e| e.mode & MODE_MASK == MODE_GITLINK) {
                    // A submodule: a tracked entry of its own, compared by the stat pass.
                    continue;
                }
                rel.push('/');
                let inside = run_under(under, rel.as_bytes());
                rel.pop();
                if !inside.is_empty() {
                    stack.push((rel.clone(), inside));
                } else if !ignored(repo, &format!("{rel}/"))? {
                    if repo.root().join(&rel).join(".git").exists() {
                        // A repository of its own inside this one: listed as the directory.
                        out.push(format!("{rel}/"));
                    } else {
                        stack.push((rel.clone(), inside));
                    }
                }
            } else if !kind.is_file() && !kind.is_symlink() {
                // A FIFO, socket or device: `git status -uall` lists none,
                // and `git add` would refuse it. A tracked one is the stat
                // pass's to compare.
                continue;
            } else if exact.is_none() && !ignored(repo, &rel)? {
                out.push(rel.clone());
            }
        }
    }
    Ok(out)
}

/// A name as text: its UTF-8 as it is, every byte that is not UTF-8 as `\xNN`.
fn escape_non_utf8(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The run of `entries` (sorted by path) whose paths begin with `prefix`.
fn run_under<'a>(entries: &'a [Entry], prefix: &[u8]) -> &'a [Entry] {
    let start = entries.partition_point(|e| e.path.as_slice() < prefix);
    let len = entries[start..].partition_point(|e| e.path.starts_with(prefix));
    &entries[start..start + len]
}

fn ignored(repo: &Repo, rel: &str) -> Reading<bool> {
    repo.git.status_should_ignore(Path::new(rel)).map_err(|e| Unread::git(&format!("the ignore rules for {rel}"), &e))
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    use crate::status::{read, read_with_libgit2};

    /// The fast path and libgit2's status give the same answer.
    fn same(t: &TestRepo) {
        let repo = crate::open(t.path()).expect("open");
        let fast = read(&repo).expect("fast");
        let slow = read_with_libgit2(&repo).expect("libgit2");
        assert_eq!(fast, slow, "fast path and libgit2 disagree");
    }

    #[test]
    fn the_fast_path_agrees_with_libgit2_on_every_kind_of_change() {
        let t = TestRepo::with_commit();
        t.write("src/a.rs", "a\n");
        t.write("src/b.rs", "b\n");
        t.write("src/deep/c.rs", "c\n");
        t.write("run.sh", "#!/bin/sh\n");
        t.write(".gitignore", "*.log\nbuild/\n");
        std::os::unix::fs::symlink("src/a.rs", t.path().join("link")).expect("symlink");
        t.commit_all("files");
        same(&t);
        t.write("src/a.rs", "a, modified\n");
        t.remove("src/b.rs");
        t.write("src/new.rs", "new\n");
        t.write("untracked/dir/deep.txt", "u\n");
        t.write("debug.log", "ignored\n");
        t.write("build/out.o", "ignored\n");
        t.write("src/deep/c.rs", "c, staged\n");
        t.git(&["add", "src/deep/c.rs"]);
        t.write("staged-new.txt", "s\n");
        t.git(&["add", "staged-new.txt"]);
        t.git(&["rm", "-q", "--cached", "run.sh"]);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(t.path().join("README"), std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::remove_file(t.path().join("link")).expect("unlink");
        t.write("link", "now a file\n");
        t.write(".ai/local/state/task.json", "{}");
        std::os::unix::fs::symlink("src", t.path().join("untracked-link-to-dir")).expect("symlink");
        t.write("empty-ish/.keep-nothing/x.log", "ignored\n");
        same(&t);
        let repo = crate::open(t.path()).expect("open");
        let tree = read(&repo).expect("read");
        let dirty: Vec<_> = tree.dirty.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(dirty, ["README", "link", "run.sh", "src/a.rs", "src/b.rs", "src/deep/c.rs", "staged-new.txt"]);
        // run.sh left the index but not the disk: it is dirty (removed), not untracked.
        assert_eq!(tree.untracked, ["src/new.rs", "untracked-link-to-dir", "untracked/dir/deep.txt"]);
    }

    #[test]
    fn same_size_same_second_edits_are_seen_through_the_racy_check() {
        let t = TestRepo::with_commit();
        t.write("a.txt", "aaaa\n");
        t.commit_all("a");
        // Rewritten at once, same size: the stat data may match to the second.
        t.write("a.txt", "bbbb\n");
        same(&t);
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(read(&repo).expect("read").dirty.len(), 1);
    }

    #[test]
    fn conflicts_and_an_unborn_head_agree_with_libgit2() {
        let t = TestRepo::new();
        t.write("first.txt", "1\n");
        same(&t);
        t.git(&["add", "first.txt"]);
        same(&t);
        let t = TestRepo::with_conflicted_merge("first.txt");
        same(&t);
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(read(&repo).expect("read").conflicted, ["first.txt"]);
    }

    #[test]
    fn a_split_index_which_neither_reader_knows_is_unread_with_the_reason() {
        let t = TestRepo::with_commit();
        t.write("src/a.rs", "a\n");
        t.commit_all("a");
        t.git(&["update-index", "--split-index"]);
        t.write("src/a.rs", "a, changed\n");
        t.write("src/b.rs", "b\n");
        t.git(&["add", "src/b.rs"]);
        assert!(
            crate::index_file::Index::read(&t.path().join(".git/index")).is_err(),
            "the split index is read directly"
        );
        let repo = crate::open(t.path()).expect("open");
        let unread = read(&repo).expect_err("libgit2 reads no split index either");
        assert!(unread.reason.contains("link"), "{unread}");
        assert!(read_with_libgit2(&repo).expect_err("unread").reason.contains("link"));
    }

    #[test]
    fn a_submodule_is_neither_untracked_nor_dirty_and_agrees_with_libgit2() {
        let inner = TestRepo::with_commit();
        let t = TestRepo::with_commit();
        t.git(&[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            inner.path().to_str().expect("utf8"),
            "sub",
        ]);
        t.commit_all("submodule");
        same(&t);
        let repo = crate::open(t.path()).expect("open");
        let tree = read(&repo).expect("read");
        assert!(tree.untracked.is_empty() && tree.dirty.is_empty(), "{tree:?}");
        t.write("sub/new-inside.txt", "x\n");
        same(&t);
    }

    #[test]
    fn a_tracked_file_replaced_by_a_directory_agrees_with_libgit2() {
        let t = TestRepo::with_commit();
        t.write("thing", "a file\n");
        t.commit_all("thing");
        t.remove("thing");
        t.write("thing/inside.txt", "now a directory\n");
        same(&t);
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(read(&repo).expect("read").untracked, ["thing/inside.txt"]);
    }

    /// What git's own `status --porcelain=v2 -uall` says: the tracked paths
    /// that differ and the untracked ones. `--no-optional-locks`: git does
    /// not refresh the index (and so clear skip-worktree bits) as it looks.
    fn git_says(t: &TestRepo) -> (Vec<String>, Vec<String>) {
        let out = t.git(&["--no-optional-locks", "status", "--porcelain=v2", "-uall"]);
        let (mut dirty, mut untracked) = (Vec::new(), Vec::new());
        for line in out.lines() {
            match line.split_once(' ') {
                Some(("1", rest)) => dirty.push(rest.splitn(8, ' ').nth(7).expect("a path").to_string()),
                Some(("?", path)) => untracked.push(path.to_string()),
                _ => panic!("unexpected status line {line:?}"),
            }
        }
        (dirty, untracked)
    }

    /// The fast path's answer as `git_says` gives git's.
    fn fast_says(t: &TestRepo) -> (Vec<String>, Vec<String>) {
        let repo = crate::open(t.path()).expect("open");
        let tree = read(&repo).expect("read");
        (tree.dirty.into_iter().map(|d| d.path).collect(), tree.untracked)
    }

    /// Runs `f` on a thread of its own and fails if it does not end within
    /// ten seconds: a reading that blocks fails the test rather than hang it.
    fn within_a_timeout<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(f()));
        rx.recv_timeout(std::time::Duration::from_secs(10)).expect("the reading blocked")
    }

    fn mkfifo(path: &std::path::Path) {
        use rustix::fs::{FileType, Mode};
        rustix::fs::mknodat(rustix::fs::CWD, path, FileType::Fifo, Mode::from_raw_mode(0o644), 0).expect("mkfifo");
    }

    #[test]
    fn a_fifo_is_never_opened_untracked_it_is_not_listed_tracked_it_is_modified_as_git_says() {
        let t = TestRepo::with_commit();
        t.write("src/pipe-was-here.txt", "a file\n");
        t.write(".ai/repo/debt/old-baseline.txt", "entry\n");
        t.commit_all("files");
        mkfifo(&t.path().join("untracked-pipe"));
        t.remove("src/pipe-was-here.txt");
        mkfifo(&t.path().join("src/pipe-was-here.txt"));
        mkfifo(&t.path().join(".ai/repo/debt/pipe-baseline.txt"));
        let root = t.path().to_path_buf();
        let (fast, tree, id, fingerprint, baselines) = within_a_timeout(move || {
            let repo = crate::open(&root).expect("open");
            let tree = read(&repo).expect("read");
            let fast = (tree.dirty.iter().map(|d| d.path.clone()).collect::<Vec<_>>(), tree.untracked.clone());
            let id = crate::status::content_id(&repo, "src/pipe-was-here.txt");
            let fingerprint = crate::fingerprint::worktree(&root, &["src/pipe-was-here.txt", "untracked-pipe"]);
            (fast, tree, id, fingerprint, crate::baselines::read_worktree(&repo))
        });
        assert_eq!(fast, git_says(&t));
        assert_eq!(fast.0, ["src/pipe-was-here.txt"]);
        assert!(fast.1.is_empty(), "{fast:?}");
        assert!(!tree.dirty[0].deleted, "git calls it modified, not deleted");
        assert_eq!(id, None, "a FIFO has no content git could take");
        assert!(!fingerprint.is_empty());
        let unread = baselines.expect_err("a baseline that is a FIFO cannot be read");
        assert!(
            unread
                .reason
                .contains("the baseline .ai/repo/debt/pipe-baseline.txt is a FIFO (named pipe), not a regular file"),
            "{unread}"
        );
    }

    #[test]
    fn files_outside_a_sparse_checkouts_cone_are_clean_absent_and_compared_present_as_git_says() {
        let t = TestRepo::with_commit();
        t.write("src/in.rs", "in\n");
        t.write("other/out.txt", "out\n");
        t.write("other/kept.txt", "kept\n");
        t.commit_all("files");
        t.git(&["sparse-checkout", "set", "src"]);
        assert!(!t.path().join("other").exists(), "the cone left other/ out");
        assert_eq!(fast_says(&t), (vec![], vec![]), "absent outside the cone is clean");
        assert_eq!(fast_says(&t), git_says(&t));
        // A file outside the cone put back edited, one put back as it was.
        t.write("other/out.txt", "out, edited\n");
        t.write("other/kept.txt", "kept\n");
        assert_eq!(fast_says(&t).0, ["other/out.txt"]);
        assert_eq!(fast_says(&t), git_says(&t));
    }

    #[test]
    fn a_skip_worktree_file_without_a_sparse_checkout_is_clean_edited_or_gone_as_git_says() {
        let t = TestRepo::with_commit();
        t.write("local.conf", "committed\n");
        t.commit_all("conf");
        t.git(&["update-index", "--skip-worktree", "local.conf"]);
        t.write("local.conf", "my local edit\n");
        assert_eq!(fast_says(&t), (vec![], vec![]), "git ignores a skip-worktree file's changes");
        assert_eq!(fast_says(&t), git_says(&t));
        t.remove("local.conf");
        assert_eq!(fast_says(&t), (vec![], vec![]));
        assert_eq!(fast_says(&t), git_says(&t));
    }

    #[test]
    fn a_file_name_that_is_not_utf8_is_named_with_its_bytes_escaped() {
        use std::os::unix::ffi::OsStrExt;
        let t = TestRepo::with_commit();
        std::fs::create_dir(t.path().join("dir")).expect("mkdir");
        let name = std::ffi::OsStr::from_bytes(b"caf\xc3\xa9-\xff.txt");
        std::fs::write(t.path().join("dir").join(name), "x\n").expect("write");
        let repo = crate::open(t.path()).expect("open");
        let unread = read(&repo).expect_err("a name that is not UTF-8 is not read");
        assert!(unread.reason.contains("is not UTF-8: dir/caf\u{e9}-\\xff.txt"), "{unread}");
    }

    #[test]
    fn a_nested_repository_and_gitattributes_filters_agree_with_libgit2() {
        let t = TestRepo::with_commit();
        t.write(".gitattributes", "*.txt text eol=crlf\n");
        t.write("a.txt", "line\n");
        t.commit_all("attributes");
        t.write("a.txt", "line\r\n");
        t.git_in(t.path(), &["init", "-q", "nested"]);
        t.write("nested/file", "x\n");
        same(&t);
    }
}
