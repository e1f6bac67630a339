//! The commit family: `committed`, `no-untracked`, `no-stash`, `settled`,
//! `pushed`. Is the work in commits, and are the commits on the remote?
//!
//! Each is measured from where the task started: a file already dirty or
//! untracked then, a stash entry already there, a commit already unpushed
//! is inherited, named in the evidence and never counted against the task.
//! `settled` and `pushed` need no task record: an operation in progress or
//! a commit not pushed is open whoever made it.

use std::collections::BTreeSet;

use majordomus_readings::refs::Push;
use majordomus_readings::stash::StashEntry;
use majordomus_readings::Reading;
use majordomus_records::RepoPath;

pub mod judge;
pub mod questions;
pub mod readings;

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
    /// The operation in progress (`merge`, `rebase`, …), if any.
    pub operation: Reading<Option<String>>,
    /// What of HEAD is not on the remote (`majordomus_readings::refs::push`).
    pub push: Reading<Push>,
}

impl CommitReadings {
    /// Every reading of the family unread for one reason.
    pub fn unread(reason: &majordomus_readings::Unread) -> Self {
        Self {
            inherited_dirty: Err(reason.clone()),
            inherited_untracked: Err(reason.clone()),
            stashes: Err(reason.clone()),
            operation: Err(reason.clone()),
            push: Err(reason.clone()),
        }
    }
}
