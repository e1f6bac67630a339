//! The closing family: `no-new-debt`, `nothing-accumulated`,
//! `backlog-not-grown`. The part of "is this done?" that is about the
//! repository over time, measured from where the task started.
//!
//! On 2026-10-10 a session was asked seven times whether everything was
//! done, and seven times it answered from what it remembered doing: its one
//! branch and its one worktree were gone, it had opened no pull request.
//! The eighth answer was measured: 52 pull requests open against 49 when the
//! session began, 117 worktrees where the previous session had left 96, 225
//! local branches. A worker's memory holds what the worker did, not what the
//! repository holds; these readings hold the latter.
//!
//! - [`Debt`] — the entries of every debt baseline (`.ai/repo/**/*-baseline.txt`)
//!   at the start, against the working tree now. The start is the task
//!   record's snapshot (so an edit already uncommitted then is inherited,
//!   until the task commits it: an entry HEAD holds that the start commit
//!   did not is the task's), else the start commit, read in one walk of its
//!   tree. A baseline moved
//!   since the start is paired with its former self, by git's rename
//!   detection or by the entries it shares, so a move launders nothing;
//!   one that cannot be told from a moved one (an empty baseline gone since
//!   the start leaves nothing to tell them apart by) is compared with what
//!   is gone, never taken for new. A baseline gone with nothing under
//!   `.ai/repo` in its place is followed out of the naming pattern, to the
//!   file git's rename detection pairs it with among the paths the change
//!   added ([`follow`](readings::follow), taken once the change set is).
//!   Entries are bytes, and links are read through where they lead inside
//!   the working tree, on both sides alike (`majordomus_readings::baselines`).
//!   What it is not: a measure of debt. It counts entries; one entry taken
//!   out and another put in is the same count and is still caught, because
//!   entries are compared as multisets (a further copy of an entry is one
//!   added), but debt nobody wrote down is not seen. What HEAD's commit
//!   holds at a baseline, where it is not the file's content (a clean
//!   filter given to one `git add`), is held now as much as the file's.
//! - [`Accumulated`] — every local branch and linked worktree now, each
//!   dated by the first line its reflog still holds. Judging compares them
//!   with the start snapshot. What it is not: a record of who made them.
//!   Git keeps none, so another session's branch counts too; an expired
//!   reflog reads younger than its ref, and a ref with no reflog has no date.
//!   The branches and worktrees of each submodule checked out here are
//!   judged the same, from the commit family's reading of them
//!   (`majordomus_readings::refs::in_submodules`).
//! - [`Backlog`] — the recorded forge observation, in the common git
//!   directory (`majordomus/forge.json`, every worktree's), believed as
//!   `trust.rs` says. `check` never reaches the network: an observation is
//!   taken by `majordomus forge refresh` (or recorded), and one taken before
//!   the task started cannot say what the task's hours brought. A policy
//!   declaring no forge (`[forge] provider = "none"`) reads none.
//!
//! Each is a `Result` of its own: one that cannot be taken takes no other
//! with it. None of them judges; `judge.rs` does.

use majordomus_readings::{Reading, Unread};

pub mod judge;
pub mod questions;
pub mod readings;
pub mod trust;

use readings::{Accumulated, Backlog, Debt};

/// The stage the documents name for this family's questions.
pub const STAGE: &str = "closing";

/// The closing readings, each a `Result` of its own.
#[derive(Debug)]
pub struct ClosingReadings {
    pub debt: Reading<Debt>,
    pub accumulated: Reading<Accumulated>,
    pub backlog: Reading<Backlog>,
    /// Tasks of the repository left open where no worktree shows them
    /// (`src/orphans.rs`): whatever this worktree's task, they hold
    /// `nothing-accumulated` open.
    pub orphans: Vec<crate::orphans::Orphan>,
}

impl ClosingReadings {
    /// Every reading of the family unread for one reason (the time budget ran
    /// out before the family was read, the repository cannot be read).
    pub fn unread(reason: &Unread) -> Self {
        Self {
            debt: Err(reason.clone()),
            accumulated: Err(reason.clone()),
            backlog: Err(reason.clone()),
            orphans: Vec::new(),
        }
    }
}
