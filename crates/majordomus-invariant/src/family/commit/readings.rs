//! Taking the commit family's readings. The stash, the operation in
//! progress and what is not pushed do not need the working tree's status:
//! `src/measure.rs` takes them beside it, on the thread of the ref readings;
//! what was dirty at the start is compared once the status is read.

use std::collections::{BTreeMap, BTreeSet};

use majordomus_readings::refs::{self, Branch, Head, NoTrunk, Push, Trunk};
use majordomus_readings::stash::{self, StashEntry};
use majordomus_readings::status::{self, WorkingTree};
use majordomus_readings::{state, Reading, Repo};
use majordomus_records::task::{DirtyPath, TaskRecord, UntrackedPath};
use majordomus_records::RepoPath;

/// The stash entries now.
pub fn stashes(repo: &Repo) -> Reading<Vec<StashEntry>> {
    stash::read(repo)
}

/// The operation in progress, if any.
pub fn operation(repo: &Repo) -> Reading<Option<String>> {
    state::operation(repo)
}

/// What of HEAD is not on the remote, and what of that was made since the
/// task's start commit.
pub fn push(
    repo: &Repo,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    record: Option<&TaskRecord>,
) -> Reading<Push> {
    refs::push(repo, head, branches, trunk, record.and_then(|r| r.head.as_deref()))
}

/// The dirty paths now that were dirty at the start with the same content
/// (in the index and in the working tree, and the same mode where the
/// record kept it).
pub fn inherited_dirty(repo: &Repo, record: &TaskRecord, tree: &WorkingTree) -> BTreeSet<RepoPath> {
    let Some(then) = &record.snapshot.dirty else { return BTreeSet::new() };
    let by_path: BTreeMap<&RepoPath, &DirtyPath> = then.iter().map(|d| (&d.path, d)).collect();
    tree.dirty
        .iter()
        .filter(|d| {
            by_path
                .get(&d.path)
                .is_some_and(|t| t.index == d.index && same_content(repo, tree, &d.path, t.worktree.as_deref(), t.mode))
        })
        .map(|d| d.path.clone())
        .collect()
}

/// The untracked paths now that were untracked at the start with the same
/// content: a file the task filled since is its work, whatever its name.
/// `None` when the record holds no snapshot of the untracked files.
pub fn inherited_untracked(repo: &Repo, record: &TaskRecord, tree: &WorkingTree) -> Option<BTreeSet<RepoPath>> {
    let then = record.snapshot.untracked.as_ref()?;
    let by_path: BTreeMap<&RepoPath, &UntrackedPath> = then.iter().map(|u| (&u.path, u)).collect();
    Some(
        tree.untracked
            .iter()
            .filter(|p| by_path.get(p).is_some_and(|u| same_content(repo, tree, p, u.worktree.as_deref(), u.mode)))
            .cloned()
            .collect(),
    )
}

/// Whether `path` holds now the content id `then` (and the mode `mode`,
/// where the record kept one and the reading compares modes). Read only
/// for the paths the start named.
fn same_content(repo: &Repo, tree: &WorkingTree, path: &RepoPath, then: Option<&str>, mode: Option<u32>) -> bool {
    let now = status::content_id(repo, path);
    if now.as_deref() != then {
        return false;
    }
    match mode {
        Some(m) if now.is_some() && !tree.modes_ignored => status::worktree_mode(repo, path) == Some(m),
        _ => true,
    }
}
