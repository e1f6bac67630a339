//! The change set since the start: every path whose content now differs
//! from the start commit, committed or not, tracked or untracked.
//!
//! It is computed without a second full pass over the working tree: the
//! paths that differ between the start commit and HEAD (a tree-to-tree diff,
//! which skips identical subtrees) together with the paths the status pass
//! already found, each then compared with its content at the start. A path
//! that was already dirty at the start and whose content is what it was
//! then is *inherited*: named, not counted, as long as the task left it
//! where it found it. What the task puts into history is the task's,
//! whatever the working tree held at the start: a path dirty (or untracked)
//! at the start that HEAD now holds other than the start commit did (the
//! task committed it, `git add -A` taking in someone's edit) is changed, as
//! any path the task's commits changed.
//!
//! What a fetch brought is not the task's ([`crate::refs::arrival`]): a
//! path HEAD holds other than the start commit did, that the working tree
//! holds as HEAD does, and that none of the task's own commits changed
//! (a colleague's commit pulled, or rebased onto) is *arrived*: named, not
//! counted. A path the task's commits changed is the task's whatever
//! arrived over it, and so is every path the working tree holds other
//! than HEAD.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use git2::Oid;
use majordomus_records::task::Snapshot;
use majordomus_records::RepoPath;

use crate::refs::Arrival;
use crate::status::{content_id, WorkingTree};
use crate::{Reading, Repo, Unread};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeSet {
    /// Paths changed since the start, sorted.
    pub changed: Vec<RepoPath>,
    /// Paths that differ from the start commit exactly as they did at the
    /// start, and that HEAD still holds as the start commit did: uncommitted
    /// then and now.
    pub inherited: Vec<RepoPath>,
    /// Paths HEAD holds other than the start commit did only through
    /// commits a fetch brought since the start: not the task's.
    pub arrived: Vec<RepoPath>,
    /// The newest of those commits HEAD reaches (each no other of them
    /// reaches): what the task's own lines are told from, beside the start.
    pub arrived_tips: Vec<String>,
    /// Of `changed`, the paths a merge in progress brings from its other
    /// side: the working tree holds them as `MERGE_HEAD` does, and HEAD
    /// holds them otherwise. Whose they are is read once the merge is
    /// committed (a colleague's, fetched, is then what arrived); until
    /// then they are neither the task's nor anyone else's
    /// (test/cases/467).
    pub merging: Vec<RepoPath>,
    /// Tracked paths the status found dirty whose working tree holds what
    /// HEAD holds: only the index differs (`git add`, then the edit undone
    /// in the working tree, or the file removed). `git commit -- PATH`
    /// takes the working tree's content, and with nothing else named
    /// refuses ("nothing to commit"); `git reset -q -- PATH` puts the
    /// index back (test/cases/636). Sorted.
    pub staged_only: Vec<RepoPath>,
}

/// A path's content and mode: the blob id, and the mode git records
/// (`0o100644`, `0o100755`, `0o120000`, `0o160000`).
type Entry = (String, u32);

/// The change set from `start` (`None`: HEAD was unborn) to the working
/// tree now; `arrival`: what a fetch brought onto HEAD since the start
/// ([`crate::refs::arrived`]), set apart.
pub fn since<'a>(
    repo: &'a Repo,
    start: Option<&str>,
    head: Option<&str>,
    tree: &WorkingTree,
    snapshot: &Snapshot,
    arrival: Option<&Arrival>,
) -> Reading<ChangeSet> {
    let commit_tree = |id: &str| -> Reading<git2::Tree<'_>> {
        let oid = Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))?;
        let commit = repo.git.find_commit(oid).map_err(|_| Unread::start_commit_missing(id))?;
        commit.tree().map_err(|e| Unread::git(&format!("the tree of {id}"), &e))
    };
    let start_tree = start.map(commit_tree).transpose()?;
    let head_tree = head.map(commit_tree).transpose()?;

    let mut candidates: BTreeSet<RepoPath> = BTreeSet::new();
    if start != head {
        let paths = crate::trees::changed_paths(&repo.git, start_tree.as_ref(), head_tree.as_ref())
            .map_err(|e| Unread::git("the commits since the start", &e))?;
        candidates.extend(paths);
    }
    // Paths whose working-tree content differs from HEAD: read from disk.
    let on_disk: BTreeSet<&RepoPath> =
        tree.dirty.iter().map(|d| &d.path).chain(&tree.untracked).chain(&tree.conflicted).collect();
    let dirty: BTreeSet<&RepoPath> = tree.dirty.iter().map(|d| &d.path).collect();
    candidates.extend(on_disk.iter().map(|p| (*p).clone()));

    // What each path held at the start, when it differed from the start commit.
    let at_start: BTreeMap<&RepoPath, (Option<&str>, Option<u32>)> = snapshot
        .dirty
        .iter()
        .flatten()
        .map(|d| (&d.path, (d.worktree.as_deref(), d.mode)))
        .chain(snapshot.untracked.iter().flatten().map(|u| (&u.path, (u.worktree.as_deref(), u.mode))))
        .collect();

    // Each tree looked up at every candidate, its directories read once.
    let merge_tree = merge_head_tree(repo)?;
    let lookup = |t: Option<git2::Tree<'a>>| t.map(|t| crate::trees::Lookup::new(&repo.git, t));
    let (start_tree, head_tree, merge_tree) = (lookup(start_tree), lookup(head_tree), lookup(merge_tree));
    let in_tree = |t: Option<&crate::trees::Lookup<'_>>, p: &RepoPath| -> Option<Entry> {
        let (id, mode) = t?.entry_at(&p.under(Path::new("")))?;
        Some((id.to_string(), mode as u32))
    };
    let mut set =
        ChangeSet { arrived_tips: arrival.map(|a| a.tips.clone()).unwrap_or_default(), ..ChangeSet::default() };
    // Every candidate counts, under `.ai/local/` too: an untracked file
    // there is no candidate (the reading of the tree leaves it out), and
    // one a commit or the index holds is the user's content.
    // A blob's size is read from its header, never its content.
    let odb = repo.git.odb().ok();
    for path in candidates {
        let mut now = if on_disk.contains(&path) {
            // Where the reading compared no modes (core.fileMode off), git
            // keeps the mode it recorded.
            let kept = if tree.modes_ignored { in_tree(head_tree.as_ref(), &path).map(|(_, m)| m) } else { None };
            Now::Disk(OnDisk::new(repo, &path, kept))
        } else {
            Now::Tree(in_tree(head_tree.as_ref(), &path))
        };
        // A mode-only change is a change: the content id and the mode both count.
        let at_start_commit = in_tree(start_tree.as_ref(), &path);
        let as_at_start = now.holds(at_start_commit.as_ref(), odb.as_ref());
        // Dirty, yet the working tree holds HEAD's: only the index differs.
        // Looked up only for the status's dirty paths, and hashed again
        // only where HEAD and the start differ at the path.
        if dirty.contains(&path) && !tree.conflicted.contains(&path) {
            let at_head = in_tree(head_tree.as_ref(), &path);
            let holds_head = match at_head == at_start_commit {
                true => as_at_start,
                false => now.holds(at_head.as_ref(), odb.as_ref()),
            };
            if holds_head {
                set.staged_only.push(path.clone());
            }
        }
        if as_at_start {
            continue;
        }
        // Only what arrived changed it, and the working tree holds it as HEAD does.
        if arrival.is_some_and(|a| !a.touched(&path)) && !on_disk.contains(&path) {
            set.arrived.push(path);
            continue;
        }
        let inherited = match at_start.get(&path) {
            // A record that kept no mode compares the content alone.
            Some((then, mode)) => {
                let now = now.entry();
                *then == now.as_ref().map(|(id, _)| id.as_str())
                    && (mode.is_none() || *mode == now.as_ref().map(|(_, m)| *m))
                    // Committed since the start: the task put it into history.
                    && (start == head || in_tree(head_tree.as_ref(), &path) == in_tree(start_tree.as_ref(), &path))
            }
            None => false,
        };
        if inherited {
            set.inherited.push(path);
            continue;
        }
        let brought = merge_tree.as_ref().is_some_and(|m| {
            on_disk.contains(&path)
                && !tree.conflicted.contains(&path)
                && now.holds(in_tree(Some(m), &path).as_ref(), odb.as_ref())
                && !now.holds(in_tree(head_tree.as_ref(), &path).as_ref(), odb.as_ref())
        });
        if brought {
            set.merging.push(path.clone());
        }
        set.changed.push(path);
    }
    Ok(set)
}

/// The tree of the merge in progress's other side (`MERGE_HEAD`, in this
/// worktree's git directory); `None` when no merge is in progress. A
/// `MERGE_HEAD` that names no commit here is read as none: nothing is then
/// set apart.
fn merge_head_tree(repo: &Repo) -> Reading<Option<git2::Tree<'_>>> {
    let bytes = match crate::file::read_optional(&repo.git_dir().join("MERGE_HEAD")) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(None),
        Err(e) => return Err(Unread::io(e.to_string())),
    };
    let text = String::from_utf8_lossy(&bytes);
    let Some(oid) = text.split_whitespace().next().and_then(|w| Oid::from_str(w).ok()) else { return Ok(None) };
    Ok(repo.git.find_commit(oid).and_then(|c| c.tree()).ok())
}

/// A working-tree path's content id and the mode git would record for it.
/// `kept`: the recorded mode of a tracked file where `core.fileMode` is off.
fn on_disk_entry(repo: &Repo, path: &RepoPath, kept: Option<u32>) -> Option<Entry> {
    let id = content_id(repo, path)?;
    let mode = crate::inputs::worktree_mode_of(repo, path, kept)?;
    Some((id, mode))
}

/// What a candidate holds now: HEAD's entry, or the working tree's.
enum Now<'a> {
    Tree(Option<Entry>),
    Disk(OnDisk<'a>),
}

impl Now<'_> {
    /// Its content id and mode, the file hashed where it is on disk.
    fn entry(&mut self) -> &Option<Entry> {
        match self {
            Now::Tree(entry) => entry,
            Now::Disk(disk) => disk.entry(),
        }
    }

    /// Whether it holds `other` (`None`: no content), the file on disk
    /// hashed only where its stat cannot tell.
    fn holds(&mut self, other: Option<&Entry>, odb: Option<&git2::Odb<'_>>) -> bool {
        match self {
            Now::Tree(entry) => entry.as_ref() == other,
            Now::Disk(disk) => disk.holds(other, odb),
        }
    }
}

/// A candidate on disk, its content id taken only when a comparison needs
/// it. A blob's id hashes its size with its content, so a regular file
/// whose size (its stat's) is not the other blob's (its header's) holds
/// other content without a byte of it read: a file of gigabytes the task
/// left untracked, or wrote over a tracked one, is told changed from its
/// stat, as `git status` tells it (test/cases/547). Its id is taken only
/// where a record of the start names the path (was it left as it was
/// found?), through the large files' cache.
struct OnDisk<'a> {
    repo: &'a Repo,
    path: &'a RepoPath,
    kept: Option<u32>,
    taken: Option<Option<Entry>>,
}

impl<'a> OnDisk<'a> {
    fn new(repo: &'a Repo, path: &'a RepoPath, kept: Option<u32>) -> Self {
        OnDisk { repo, path, kept, taken: None }
    }

    /// Its content id and mode, hashed once.
    fn entry(&mut self) -> &Option<Entry> {
        let (repo, path, kept) = (self.repo, self.path, self.kept);
        self.taken.get_or_insert_with(|| on_disk_entry(repo, path, kept))
    }

    /// Whether it holds `other`; false from the stat alone where the file
    /// is regular and its mode or size is not `other`'s.
    fn holds(&mut self, other: Option<&Entry>, odb: Option<&git2::Odb<'_>>) -> bool {
        if self.taken.is_none() && self.differs_by_stat(other, odb) {
            return false;
        }
        self.entry().as_ref() == other
    }

    /// Whether the file's stat alone says it is not `other`: no content is
    /// not a regular file's; a mode or a size not `other`'s is not its blob.
    fn differs_by_stat(&self, other: Option<&Entry>, odb: Option<&git2::Odb<'_>>) -> bool {
        let Some(full) = crate::file::in_tree(self.repo.root(), self.path) else { return false };
        let Ok(meta) = std::fs::symlink_metadata(&full) else { return false };
        if !meta.is_file() {
            return false;
        }
        let Some((id, mode)) = other else { return true };
        if crate::inputs::worktree_mode_of(self.repo, self.path, self.kept).is_some_and(|m| m != *mode) {
            return true;
        }
        let size = Oid::from_str(id).ok().and_then(|oid| odb?.read_header(oid).ok()).map(|(size, _)| size as u64);
        size.is_some_and(|s| s != meta.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_records::task::DirtyPath;
    use majordomus_testkit::TestRepo;

    fn change_set(t: &TestRepo, start: &str, snapshot: &Snapshot) -> ChangeSet {
        let repo = crate::open(t.path()).expect("open");
        let tree = crate::status::read(&repo).expect("status");
        let head = crate::refs::head(&repo).expect("head").commit;
        since(&repo, Some(start), head.as_deref(), &tree, snapshot, None).expect("changes")
    }

    #[test]
    fn committed_staged_unstaged_and_untracked_changes_all_count() {
        let t = TestRepo::with_commit();
        let start = t.head();
        t.write("src/committed.rs", "1\n");
        t.commit_all("one");
        t.write("src/staged.rs", "2\n");
        t.git(&["add", "src/staged.rs"]);
        t.write("README", "edited\n");
        t.write("notes.txt", "untracked\n");
        let set = change_set(&t, &start, &Snapshot::default());
        assert_eq!(set.changed, ["README", "notes.txt", "src/committed.rs", "src/staged.rs"]);
        assert!(set.inherited.is_empty());
    }

    #[test]
    fn a_change_committed_then_reverted_in_the_working_tree_is_no_change() {
        let t = TestRepo::with_commit();
        let start = t.head();
        t.write("README", "changed\n");
        t.commit_all("change");
        t.write("README", "hello\n");
        assert_eq!(change_set(&t, &start, &Snapshot::default()), ChangeSet::default());
    }

    #[test]
    fn a_path_dirty_at_the_start_and_untouched_since_is_inherited() {
        let t = TestRepo::with_commit();
        let start = t.head();
        let dirty_id = t.write("README", "dirty before the task\n");
        let repo = crate::open(t.path()).expect("open");
        let id = content_id(&repo, &"README".into());
        assert!(dirty_id.exists());
        let snapshot = Snapshot {
            dirty: Some(vec![DirtyPath { path: "README".into(), index: None, worktree: id, mode: None }]),
            ..Snapshot::default()
        };
        let set = change_set(&t, &start, &snapshot);
        assert_eq!(set.inherited, ["README"]);
        assert!(set.changed.is_empty());
        t.write("README", "and touched during it\n");
        assert_eq!(change_set(&t, &start, &snapshot).changed, ["README"]);
    }

    /// The snapshot of a start where each of `dirty` and `untracked` held
    /// what it holds now.
    fn snapshot_of(t: &TestRepo, dirty: &[&str], untracked: &[&str]) -> Snapshot {
        let repo = crate::open(t.path()).expect("open");
        let id = |p: &str| content_id(&repo, &p.into());
        Snapshot {
            dirty: Some(
                dirty
                    .iter()
                    .map(|p| DirtyPath { path: (*p).into(), index: None, worktree: id(p), mode: None })
                    .collect(),
            ),
            untracked: Some(
                untracked
                    .iter()
                    .map(|p| majordomus_records::task::UntrackedPath { path: (*p).into(), worktree: id(p), mode: None })
                    .collect(),
            ),
            ..Snapshot::default()
        }
    }

    #[test]
    fn a_path_dirty_at_the_start_that_the_task_committed_is_changed() {
        let t = TestRepo::with_commit();
        let start = t.head();
        t.write("README", "someone's edit, uncommitted at the start\n");
        t.write("notes.txt", "untracked at the start\n");
        t.write("kept.txt", "untracked at the start, and left so\n");
        let snapshot = snapshot_of(&t, &["README"], &["notes.txt", "kept.txt"]);
        assert_eq!(change_set(&t, &start, &snapshot).inherited, ["README", "kept.txt", "notes.txt"]);
        t.git(&["add", "README", "notes.txt"]);
        t.git(&["commit", "-qm", "the task's commit takes them in"]);
        let set = change_set(&t, &start, &snapshot);
        assert_eq!(set.changed, ["README", "notes.txt"]);
        assert_eq!(set.inherited, ["kept.txt"]);
    }

    #[test]
    fn a_path_dirty_at_the_start_stays_inherited_while_the_task_commits_other_paths() {
        let t = TestRepo::with_commit();
        let start = t.head();
        t.write("README", "someone's edit, uncommitted at the start\n");
        let snapshot = snapshot_of(&t, &["README"], &[]);
        t.write("src/lib.rs", "the task's\n");
        t.git(&["add", "src/lib.rs"]);
        t.git(&["commit", "-qm", "the task's commit"]);
        let set = change_set(&t, &start, &snapshot);
        assert_eq!(set.changed, ["src/lib.rs"]);
        assert_eq!(set.inherited, ["README"]);
    }

    #[test]
    fn a_path_only_arrived_commits_changed_is_named_and_the_working_tree_is_never_set_apart() {
        let t = TestRepo::with_commit();
        let start = t.head();
        t.write("docs/theirs.md", "theirs\n");
        t.write("src/both.rs", "theirs\n");
        t.commit_all("arrived");
        t.write("src/mine.rs", "mine\n");
        t.commit_all("the task's");
        t.write("src/both.rs", "theirs, and mine on disk\n");
        let arrival = Arrival { touched: ["src/mine.rs".into()].into_iter().collect(), ..Arrival::default() };
        let repo = crate::open(t.path()).expect("open");
        let tree = crate::status::read(&repo).expect("status");
        let head = crate::refs::head(&repo).expect("head").commit;
        let set =
            since(&repo, Some(&start), head.as_deref(), &tree, &Snapshot::default(), Some(&arrival)).expect("read");
        assert_eq!(set.changed, ["src/both.rs", "src/mine.rs"]);
        assert_eq!(set.arrived, ["docs/theirs.md"]);
    }

    #[test]
    fn a_start_commit_missing_from_the_repository_is_unread() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        let tree = crate::status::read(&repo).expect("status");
        let missing = "0123456789012345678901234567890123456789";
        let err = since(&repo, Some(missing), None, &tree, &Snapshot::default(), None).expect_err("unread");
        assert!(err.reason.contains("is not in this repository"), "{err}");
    }
}
