//! The working tree against HEAD: tracked paths that differ, untracked
//! paths, conflicted paths. No index refresh is ever written.
//!
//! `check` runs at the end of every task, often in a hook with a time
//! limit, and this is the reading that costs the most: one `lstat` for every
//! tracked file. libgit2's status does that on one thread; git's own status
//! spreads it over the cores (`core.preloadIndex`). So [`read`] does what
//! git does: the index against HEAD through libgit2 (a tree-to-index diff),
//! the stat comparison of every index entry with its file on all cores, and
//! the walk for untracked files on this thread meanwhile. Whatever the fast
//! path cannot settle exactly (a submodule, an intent-to-add entry, content
//! that differs where a filter could be at work) is asked of libgit2 path by
//! path, and a repository configured in ways the fast path does not model
//! (`core.ignoreCase`) is read by libgit2's status whole. The differential
//! tests hold the two to the same answer; where libgit2 is wrong (a
//! skip-worktree entry, which it takes for deleted when absent; a tracked
//! file a FIFO replaced, which it takes for deleted) the fast path does what
//! git does, and its tests hold it to git's own `status`.

use git2::{Status, StatusOptions};
use majordomus_records::paths::is_own_state;

use crate::{Reading, Repo, Unread};

/// A tracked path that differs from HEAD, in the index or the working tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dirty {
    pub path: String,
    /// The blob staged in the index (`None`: removed from the index).
    pub index: Option<String>,
    /// `true` when the working-tree file is gone.
    pub deleted: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkingTree {
    pub dirty: Vec<Dirty>,
    pub untracked: Vec<String>,
    pub conflicted: Vec<String>,
}

/// Reads the working tree's state.
pub fn read(repo: &Repo) -> Reading<WorkingTree> {
    crate::fast_status::read(repo)
}

/// Reads the working tree's state in one libgit2 status pass: the reference
/// the fast path is held to, and its fallback.
pub fn read_with_libgit2(repo: &Repo) -> Reading<WorkingTree> {
    let mut opts = StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .renames_head_to_index(false)
        .renames_index_to_workdir(false);
    let statuses = repo.git.statuses(Some(&mut opts)).map_err(|e| Unread::git("the working tree's status", &e))?;
    let mut tree = WorkingTree::default();
    for entry in statuses.iter() {
        let Some(path) = entry.path() else {
            tree.dirty.push(Dirty {
                path: String::from_utf8_lossy(entry.path_bytes()).into_owned(),
                index: None,
                deleted: false,
            });
            continue;
        };
        if is_own_state(path) {
            continue;
        }
        let s = entry.status();
        if s.contains(Status::CONFLICTED) {
            tree.conflicted.push(path.to_string());
            continue;
        }
        if s == Status::WT_NEW {
            tree.untracked.push(path.to_string());
            continue;
        }
        if s.intersects(
            Status::INDEX_NEW
                | Status::INDEX_MODIFIED
                | Status::INDEX_DELETED
                | Status::INDEX_TYPECHANGE
                | Status::INDEX_RENAMED
                | Status::WT_MODIFIED
                | Status::WT_DELETED
                | Status::WT_TYPECHANGE
                | Status::WT_RENAMED,
        ) {
            let index =
                entry.head_to_index().map(|d| d.new_file()).filter(|f| f.exists()).map(|f| f.id().to_string()).or_else(
                    || {
                        // Unchanged in the index: the staged blob is HEAD's.
                        if s.intersects(Status::INDEX_NEW | Status::INDEX_MODIFIED | Status::INDEX_DELETED) {
                            None
                        } else {
                            entry.index_to_workdir().map(|d| d.old_file().id().to_string())
                        }
                    },
                );
            tree.dirty.push(Dirty { path: path.to_string(), index, deleted: s.contains(Status::WT_DELETED) });
        }
    }
    Ok(tree)
}

/// The blob id of a working-tree file's raw content, `None` when it is gone
/// or holds no content git could take: a directory, a FIFO, a socket, a
/// device (`git add` refuses those; a FIFO is never opened to find out).
pub fn content_id(repo: &Repo, rel: &str) -> Option<String> {
    let path = repo.root().join(rel);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if meta.is_dir() {
        return None;
    }
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&path).ok()?;
        return git2::Oid::hash_object(git2::ObjectType::Blob, target.to_string_lossy().as_bytes())
            .ok()
            .map(|o| o.to_string());
    }
    crate::file::blob_id(&path).ok().map(|o| o.to_string())
}

#[cfg(test)]
mod tests {
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
        assert_eq!(tree.dirty.iter().map(|d| d.path.as_str()).collect::<Vec<_>>(), ["README"]);
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

    #[test]
    fn content_id_is_gits_blob_id() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        let expected = t.git(&["hash-object", "README"]).trim().to_string();
        assert_eq!(content_id(&repo, "README"), Some(expected));
        assert_eq!(content_id(&repo, "missing"), None);
    }
}
