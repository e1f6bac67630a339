//! Taking the commit family's readings. The stash, the operation in
//! progress and what is not pushed do not need the working tree's status:
//! `src/measure.rs` takes them beside it, on the thread of the ref readings;
//! what was dirty at the start is compared once the status is read.

use std::collections::BTreeSet;

use majordomus_readings::refs::{self, Branch, Head, NoTrunk, Push, Trunk};
use majordomus_readings::stash::{self, StashEntry};
use majordomus_readings::status::{self, WorkingTree};
use majordomus_readings::state::{self, InProgress};
use majordomus_readings::{Reading, Repo};
use majordomus_records::task::TaskRecord;

/// The stash entries now.
pub fn stashes(repo: &Repo) -> Reading<Vec<StashEntry>> {
    stash::read(repo)
}

/// The operations in progress, as `git status` reports them.
pub fn operations(repo: &Repo) -> Reading<Vec<InProgress>> {
    state::operations(repo)
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
/// (in the index and in the working tree).
pub fn inherited_dirty(repo: &Repo, record: &TaskRecord, tree: &WorkingTree) -> BTreeSet<String> {
    let Some(then) = &record.snapshot.dirty else { return BTreeSet::new() };
    tree.dirty
        .iter()
        .filter(|d| {
            then.iter()
                .any(|t| t.path == d.path && t.worktree == status::content_id(repo, &d.path) && t.index == d.index)
        })
        .map(|d| d.path.clone())
        .collect()
}
