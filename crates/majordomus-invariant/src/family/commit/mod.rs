//! The commit family: `committed`, `no-untracked`, `no-stash`, `settled`,
//! `pushed`. Is the work in commits, and are the commits on the remote?
//!
//! Each is measured from where the task started: a file already dirty or
//! untracked then, a stash entry already there, a commit already unpushed
//! is inherited, named in the evidence and never counted against the task.
//! `settled` and `pushed` need no task record: an operation in progress or
//! a commit not pushed is open whoever made it.
//!
//! `pushed` asks of more than HEAD: the commits this worktree made since
//! the start on other branches (HEAD's reflog, and the branches that moved
//! since the start: `majordomus_readings::refs::attribution`), the
//! submodules whose recorded commit changed, and the branches and refs of
//! each submodule's own repository made or moved since the start
//! (`majordomus_readings::refs::in_submodules`, whose stash entries
//! `no-stash` asks of too). What counts as "on a remote"
//! is any remote-tracking ref that is evidence of its remote
//! (`majordomus_readings::refs::evidence`): one moved by hand, fetched
//! from this repository itself or belonging to a remote added since the
//! start is named in the evidence, never counted.

use std::collections::BTreeSet;

use majordomus_readings::refs::in_submodules::Left;
use majordomus_readings::refs::submodules::Submodule;
use majordomus_readings::refs::{Elsewhere, Push, RemoteEvidence};
use majordomus_readings::stash::StashEntry;
use majordomus_readings::state::InProgress;
use majordomus_readings::Reading;
use majordomus_records::RepoPath;

pub mod cache;
pub mod judge;
pub mod questions;
pub mod readings;
pub(crate) mod remedy;

/// The stage the documents name for this family's questions.
pub const STAGE: &str = "commit";

/// The commit family's readings, each a `Result` of its own. The working
/// tree's status they are judged with is shared
/// ([`Readings::tree`](crate::readings::Readings::tree)).
#[derive(Debug)]
pub struct CommitReadings {
    /// Dirty paths now that were dirty at the start with the same content.
    pub inherited_dirty: Reading<BTreeSet<RepoPath>>,
    /// Untracked paths now that were untracked at the start with the same
    /// content (`None`: the record holds no snapshot of them).
    pub inherited_untracked: Reading<Option<BTreeSet<RepoPath>>>,
    pub stashes: Reading<Vec<StashEntry>>,
    /// The operations in progress (`merge`, `rebase`, …), as `git status`
    /// reports them; empty when none is.
    pub operations: Reading<Vec<InProgress>>,
    /// What of HEAD is not on the remote (`majordomus_readings::refs::push`).
    pub push: Reading<Push>,
    /// The unpushed work this worktree made on other branches
    /// (`majordomus_readings::refs::attribution`).
    pub elsewhere: Reading<Elsewhere>,
    /// The submodules whose recorded commit changed since the start, and
    /// whether their remote holds it (`majordomus_readings::refs::submodules`).
    pub submodules: Reading<Vec<Submodule>>,
    /// What each submodule checked out here holds that the task may have
    /// left there (`majordomus_readings::refs::in_submodules`): its
    /// branches' and refs' commits its remote lacks (`pushed`), its stash
    /// entries (`no-stash`), its branches and worktrees made since the
    /// start (`nothing-accumulated`, which reads it from here).
    pub in_submodules: Reading<Vec<Left>>,
    /// Which remote-tracking refs count as evidence of the remotes, and
    /// what was set aside (`majordomus_readings::refs::evidence`).
    pub evidence: Reading<RemoteEvidence>,
    /// HEAD's branch's upstream where it is not an ancestor of HEAD, read
    /// only where `pushed` is owed for HEAD (`readings::behind`).
    pub behind: Reading<Option<readings::Behind>>,
    /// Of the refs the remedies name, those another ref of their short
    /// name shadows, named in full there (`readings::shadowed`).
    pub shadowed: Reading<BTreeSet<String>>,
}

impl CommitReadings {
    /// Every reading of the family unread for one reason.
    pub fn unread(reason: &majordomus_readings::Unread) -> Self {
        Self {
            inherited_dirty: Err(reason.clone()),
            inherited_untracked: Err(reason.clone()),
            stashes: Err(reason.clone()),
            operations: Err(reason.clone()),
            push: Err(reason.clone()),
            elsewhere: Err(reason.clone()),
            submodules: Err(reason.clone()),
            in_submodules: Err(reason.clone()),
            evidence: Err(reason.clone()),
            behind: Err(reason.clone()),
            shadowed: Err(reason.clone()),
        }
    }
}
