//! The working tree against HEAD: tracked paths that differ, untracked
//! paths, conflicted paths, as `git status --porcelain=v2 -uall` lists them.
//! No index refresh is ever written, and nothing the repository names is
//! ever run.
//!
//! `check` runs at the end of every task, often in a hook with a time
//! limit, and this is the reading that costs the most: one `lstat` for every
//! tracked file. So [`read`] does what git does (`fast.rs`): the index read
//! directly and compared with HEAD, the stat comparison of every index entry
//! with its file on all cores (`stat.rs`, git's `core.preloadIndex`), and
//! the walk for untracked files on this thread meanwhile (`walk.rs`), under
//! git's own ignore rules (`crate::ignore`). Content that differs only where
//! an eol or ident conversion could be at work is asked of libgit2, which
//! applies those built-in filters, path by path; a repository the fast path
//! does not model (`core.symlinks = false`) is read by libgit2's status
//! whole (`libgit2.rs`).
//!
//! Agreement with git is a property of the test suite, not a list of cases:
//! `tests/agree_with_git.rs` builds repositories in every state git's status
//! distinguishes, and in random combinations of them from a fixed seed, and
//! fails on any difference from `git status` beyond the deliberate ones
//! listed there and in the README ("Agreement with git status").

pub(crate) mod encoding;
mod fast;
mod gitlink;
pub mod libgit2;
mod nested;
mod since;
mod sparse;
mod stat;
mod tree;
mod verified;
mod walk;

pub use nested::Inside;
pub use since::{record, Since, Start};
pub use tree::{Dirty, Governed, Hidden, HiddenBy, Of, Overruled, Why, WorkingTree};
pub use verified::MAX_STAMPS;

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use majordomus_records::RepoPath;

use crate::{Reading, Repo};

/// Reads the working tree's state as `git status` would now.
pub fn read(repo: &Repo) -> Reading<WorkingTree> {
    fast::read(repo, Since::Now)
}

/// Reads the working tree's state for a task, by what governed the reading
/// at its start ([`Start`]: a record that does not say is read strictly),
/// the ignore files its start commit held, and each submodule checked out
/// then as its own start read it: see `since.rs`. Where it counts what git
/// hides, it says why ([`WorkingTree::overruled`], [`WorkingTree::governed`]).
pub fn read_since(repo: &Repo, start: Start<'_>) -> Reading<WorkingTree> {
    fast::read(repo, Since::Start(start))
}

/// Refuses a reading libgit2 would take under another configuration than
/// git's: where a conditional include git and libgit2 follow differently
/// sets a key the reading obeys (`core.fileMode`, `core.excludesFile`),
/// the reading is unread, naming the key and the include
/// ([`crate::config::Config::unlike_git`], test/cases/472 and 473).
fn as_git_configures(repo: &Repo) -> Reading<()> {
    match repo.config() {
        Ok(config) => config.unlike_git().map_or(Ok(()), |why| Err(crate::Unread::repository(why))),
        Err(_) => Ok(()),
    }
}

/// Reads the working tree's state in one libgit2 status pass.
pub fn read_with_libgit2(repo: &Repo) -> Reading<WorkingTree> {
    libgit2::read(repo)
}

/// The blob id of a working-tree file's raw content, `None` when it is gone
/// or holds no content git could take: a directory, a FIFO, a socket, a
/// device (`git add` refuses those; a FIFO is never opened to find out).
/// A repository of its own inside this one, untracked (listed as `dir/`),
/// has for content what it holds: its refs and what its own status lists
/// ([`nested::state_id`]), so work done inside it since is not taken for
/// what the start found there (test/cases/404). So has a submodule checked
/// out at a path the index records as one, but for its refs: its HEAD's
/// commit and what its own status lists ([`submodule`]), whatever its
/// `ignore` setting says (test/cases/449).
pub fn content_id(repo: &Repo, rel: &RepoPath) -> Option<String> {
    let path = crate::file::in_tree(repo.root(), rel)?;
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if meta.is_dir() {
        if rel.as_bytes().ends_with(b"/") {
            return nested::state_id(repo, &path);
        }
        return is_gitlink(repo, rel).then(|| nested::submodule_state(repo, &path).map(|s| s.id)).flatten();
    }
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&path).ok()?;
        return git2::Oid::hash_object(git2::ObjectType::Blob, target.as_os_str().as_encoded_bytes())
            .ok()
            .map(|o| o.to_string());
    }
    crate::large_files::blob_id(repo.root(), &path).ok().map(|o| o.to_string())
}

/// What the submodule checked out at `rel` holds ([`Inside`]): its HEAD's
/// commit, whether its own status lists anything, and the id of both with
/// each listed path's content. `None` where no repository of its own is
/// checked out there.
pub fn submodule(repo: &Repo, rel: &RepoPath) -> Option<Inside> {
    let path = crate::file::in_tree(repo.root(), rel)?;
    nested::submodule_state(repo, &path)
}

/// Whether the index records `rel` as a submodule (a gitlink, at any
/// stage): a directory at any other tracked path is a file replaced by
/// one, whose content git cannot take.
fn is_gitlink(repo: &Repo, rel: &RepoPath) -> bool {
    const GITLINK: u32 = 0o160000;
    let rel = rel.as_bytes();
    match repo.index_file() {
        Ok(index) => {
            let first = index.entries.partition_point(|e| e.path(&index.paths) < rel);
            index.entries[first..].iter().take_while(|e| e.path(&index.paths) == rel).any(|e| e.mode == GITLINK)
        }
        Err(_) => repo.git.index().is_ok_and(|i| {
            (0..=3).any(|stage| {
                i.get_path(Path::new(std::ffi::OsStr::from_bytes(rel)), stage).is_some_and(|e| e.mode == GITLINK)
            })
        }),
    }
}

/// The mode git would record for a working-tree path (`0o100644`,
/// `0o100755` or `0o120000`), `None` when it is gone.
pub fn worktree_mode(repo: &Repo, rel: &RepoPath) -> Option<u32> {
    crate::inputs::worktree_mode_of(repo, rel, None)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod basics {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn status_separates_dirty_untracked_and_skips_the_tools_own_state() {
        let t = TestRepo::with_commit();
        t.write("README", "changed\n");
        t.write("new.txt", "new\n");
        t.write(".ai/local/state/task.json", "{}");
        let repo = crate::open(t.path()).expect("open");
        let tree = read(&repo).expect("status");
        assert_eq!(tree.dirty.iter().map(|d| d.path.to_string()).collect::<Vec<_>>(), ["README"]);
        assert_eq!(tree.untracked, ["new.txt"]);
        assert!(tree.conflicted.is_empty());
    }

    #[test]
    fn a_staged_then_deleted_file_is_dirty_with_its_staged_blob() {
        let t = TestRepo::with_commit();
        t.write("a.txt", "a\n");
        t.git(&["add", "a.txt"]);
        t.remove("a.txt");
        let repo = crate::open(t.path()).expect("open");
        let tree = read(&repo).expect("status");
        let a = tree.dirty.iter().find(|d| d.path == "a.txt").expect("a.txt dirty");
        assert!(a.deleted);
        assert!(a.index.is_some());
    }

    /// A repository of its own at `dir` inside `t`'s, untracked there, one
    /// commit holding `d.rs`.
    fn nested_repository(t: &TestRepo, dir: &str) -> std::path::PathBuf {
        let inner = t.path().join(dir);
        std::fs::create_dir_all(&inner).expect("mkdir");
        t.git_in(&inner, &["init", "-q"]);
        std::fs::write(inner.join("d.rs"), "d\n").expect("write");
        t.git_in(&inner, &["add", "d.rs"]);
        t.git_in(&inner, &["commit", "-q", "-m", "d"]);
        inner
    }

    /// A repository of its own inside this one, listed as `dir/`, has its
    /// refs and its own status for content: the same while nothing moved
    /// there, another once an edit, a file or a commit was made inside.
    #[test]
    fn a_nested_repository_has_for_content_what_it_holds() {
        let t = TestRepo::with_commit();
        let inner = nested_repository(&t, "vendor/dep");
        let repo = crate::open(t.path()).expect("open");
        let id = || content_id(&repo, &"vendor/dep/".into());
        let start = id().expect("a nested repository has an id");
        assert_eq!(id().as_ref(), Some(&start), "nothing moved");
        assert_eq!(content_id(&repo, &"vendor/dep".into()), None, "a directory named as such has none");
        std::fs::write(inner.join("d.rs"), "d, fixed\n").expect("write");
        let edited = id().expect("id");
        assert_ne!(edited, start);
        std::fs::write(inner.join("e.rs"), "e\n").expect("write");
        let added = id().expect("id");
        assert_ne!(added, edited);
        t.git_in(&inner, &["add", "-A"]);
        t.git_in(&inner, &["commit", "-q", "-m", "fix"]);
        let committed = id().expect("id");
        assert!(![&start, &edited, &added].contains(&&committed));
        t.git_in(&inner, &["reset", "-q", "--hard", "HEAD~1"]);
        t.git_in(&inner, &["clean", "-qfd"]);
        assert_eq!(id(), Some(start), "put back as it was: the same content again");
    }

    /// Only the root's `.ai/local/` is majordomus's own state: the same
    /// directory inside a nested repository or a submodule is their
    /// content, a file there another content (test/cases/533).
    #[test]
    fn a_local_directory_inside_another_repository_is_its_content() {
        let t = TestRepo::with_commit();
        let _bare = t.with_submodule();
        nested_repository(&t, "vendor");
        let repo = crate::open(t.path()).expect("open");
        let (nested, lib) = (content_id(&repo, &"vendor/".into()), content_id(&repo, &"lib".into()));
        t.write(".ai/local/state/task.json", "{}");
        for dir in ["vendor", "lib"] {
            std::fs::create_dir_all(t.path().join(dir).join(".ai/local")).expect("mkdir");
            std::fs::write(t.path().join(dir).join(".ai/local/work.rs"), "w\n").expect("write");
        }
        assert_ne!(content_id(&repo, &"vendor/".into()), nested);
        assert_ne!(content_id(&repo, &"lib".into()), lib);
        let tree = read(&repo).expect("status");
        assert!(tree.dirty.iter().any(|d| d.path.as_bytes() == b"lib"), "{tree:?}");
        assert!(tree.untracked.iter().all(|p| !p.is_own_state()), "{tree:?}");
    }

    /// A submodule has for content its HEAD's commit and what its own
    /// status lists: another once an edit or a commit was made inside,
    /// the same once put back; a directory at a path the index records as
    /// a file has none.
    #[test]
    fn a_submodule_has_for_content_what_it_holds() {
        let t = TestRepo::with_commit();
        let _bare = t.with_submodule();
        let lib = t.path().join("lib");
        let repo = crate::open(t.path()).expect("open");
        let id = || content_id(&repo, &"lib".into());
        let start = id().expect("a submodule has an id");
        assert_eq!(id().as_ref(), Some(&start), "nothing moved");
        std::fs::write(lib.join("l.txt"), "edited\n").expect("write");
        let edited = id().expect("id");
        assert_ne!(edited, start);
        t.git_in(&lib, &["add", "l.txt"]);
        t.git_in(&lib, &["commit", "-q", "-m", "fix"]);
        let committed = id().expect("id");
        assert!(![&start, &edited].contains(&&committed));
        t.git_in(&lib, &["branch", "kept"]);
        assert_eq!(id().as_ref(), Some(&committed), "a branch made there is no content");
        t.git_in(&lib, &["reset", "-q", "--hard", "HEAD~1"]);
        assert_eq!(id(), Some(start), "put back as it was: the same content again");
        t.remove("README");
        std::fs::create_dir(t.path().join("README")).expect("mkdir");
        t.git_in(&t.path().join("README"), &["init", "-q"]);
        assert_eq!(content_id(&repo, &"README".into()), None, "a file replaced by a repository");
    }

    #[test]
    fn content_id_is_gits_blob_id() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        let expected = t.git(&["hash-object", "README"]).trim().to_string();
        assert_eq!(content_id(&repo, &"README".into()), Some(expected));
        assert_eq!(content_id(&repo, &"missing".into()), None);
    }
}
