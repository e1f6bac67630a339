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

mod fast;
mod gitlink;
pub mod libgit2;
mod nested;
mod since;
mod stat;
mod tree;
mod verified;
mod walk;

pub use since::{record, Since, Start};
pub use tree::{Dirty, Governed, Hidden, HiddenBy, Of, Overruled, Why, WorkingTree};
pub use verified::MAX_STAMPS;

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
/// what the start found there (test/cases/404).
pub fn content_id(repo: &Repo, rel: &RepoPath) -> Option<String> {
    let path = crate::file::in_tree(repo.root(), rel)?;
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if meta.is_dir() {
        return rel.as_bytes().ends_with(b"/").then(|| nested::state_id(repo, &path)).flatten();
    }
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&path).ok()?;
        return git2::Oid::hash_object(git2::ObjectType::Blob, target.as_os_str().as_encoded_bytes())
            .ok()
            .map(|o| o.to_string());
    }
    crate::large_files::blob_id(repo.root(), &path).ok().map(|o| o.to_string())
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

    /// A repository of its own inside this one, listed as `dir/`, has its
    /// refs and its own status for content: the same while nothing moved
    /// there, another once an edit, a file or a commit was made inside.
    #[test]
    fn a_nested_repository_has_for_content_what_it_holds() {
        let t = TestRepo::with_commit();
        let inner = t.path().join("vendor/dep");
        std::fs::create_dir_all(&inner).expect("mkdir");
        t.git_in(&inner, &["init", "-q"]);
        std::fs::write(inner.join("d.rs"), "d\n").expect("write");
        t.git_in(&inner, &["add", "d.rs"]);
        t.git_in(&inner, &["commit", "-q", "-m", "d"]);
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

    #[test]
    fn content_id_is_gits_blob_id() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        let expected = t.git(&["hash-object", "README"]).trim().to_string();
        assert_eq!(content_id(&repo, &"README".into()), Some(expected));
        assert_eq!(content_id(&repo, &"missing".into()), None);
    }
}
