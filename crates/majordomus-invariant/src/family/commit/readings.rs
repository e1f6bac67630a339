//! Taking the commit family's readings. The stash, the operation in
//! progress and what is not pushed do not need the working tree's status:
//! `src/measure.rs` takes them beside it, on the thread of the ref readings;
//! what was dirty at the start is compared once the status is read.

use std::collections::BTreeSet;

use majordomus_readings::refs::submodules::Submodule;
use majordomus_readings::refs::{self, Branch, Elsewhere, Head, NoTrunk, Push, RemoteEvidence, Start, Trunk};
use majordomus_readings::stash::{self, StashEntry};
use majordomus_readings::state::{self, InProgress};
use majordomus_readings::status::{self, WorkingTree};
use majordomus_readings::{Reading, Repo, Unread};
use majordomus_records::task::{TaskRecord, TaskState};

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
    evidence: &Reading<RemoteEvidence>,
    record: Option<&TaskRecord>,
) -> Reading<Push> {
    refs::push(repo, head, branches, trunk, evidence, record.and_then(|r| r.head.as_deref()))
}

/// The unpushed work this worktree made since the start on branches other
/// than HEAD's. With no task there is no start to measure from: nothing.
pub fn elsewhere(
    repo: &Repo,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    evidence: &Reading<RemoteEvidence>,
    task: &TaskState,
) -> Reading<Elsewhere> {
    let Some(record) = task.record() else { return Ok(Elsewhere::default()) };
    let (head, branches, evidence) = (
        head.as_ref().map_err(Clone::clone)?,
        branches.as_ref().map_err(Clone::clone)?,
        evidence.as_ref().map_err(Clone::clone)?,
    );
    if let Some(reason) = evidence.grafts_reason() {
        return Err(Unread::repository(reason));
    }
    refs::elsewhere(repo, head, branches, evidence, record)
}

/// The submodules whose recorded commit in HEAD changed since the start
/// commit. With no task, or no start commit, nothing.
pub fn submodules(repo: &Repo, head_commit: Option<&str>, task: &TaskState) -> Reading<Vec<Submodule>> {
    match (head_commit, task.record().and_then(|r| r.head.as_deref())) {
        (Some(head), Some(start)) if refs::has_commit(repo, start) => refs::submodules::changed(repo, head, start),
        (Some(_), Some(start)) => Err(Unread::start_commit_missing(start)),
        _ => Ok(Vec::new()),
    }
}

/// Which remote-tracking refs count as evidence of the remotes, measured
/// from the task's start snapshot (with no task: every ref as it is).
pub fn evidence(repo: &Repo, task: &TaskState) -> Reading<RemoteEvidence> {
    match task.record() {
        Some(r) => refs::evidence(repo, Start::Snapshot(&r.snapshot)),
        None => refs::evidence(repo, Start::NoTask),
    }
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
