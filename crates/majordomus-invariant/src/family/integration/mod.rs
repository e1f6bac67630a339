//! The integration family: `integrated`, `upstream-alive`. Has the work
//! landed on the trunk, and does no branch track an upstream that is gone?
//!
//! The trunk is chosen as `majordomus_readings::refs::trunk` says (the
//! policy's `[trunk]`, else the remote's default branch, else a
//! conventional name); work reaches it by a merge, or by a squash or rebase
//! merge that holds HEAD's changes with the same content (blob and mode).
//! Neither question needs a task record, but with one the trunk is the one
//! recorded at the start, read at the value its remote-tracking ref counts
//! at (`majordomus_readings::refs::evidence`), and an upstream already gone
//! at the start is inherited.

use std::collections::BTreeMap;

use majordomus_readings::refs::{Integration, Trunk, Undecided};
use majordomus_readings::Reading;

pub mod cache;
pub mod judge;
pub mod questions;
pub mod readings;

/// The stage the documents name for this family's questions.
pub const STAGE: &str = "integration";

/// Whether the trunk holds HEAD's work.
// One value per check: the size of its variants does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Integrated {
    /// HEAD has no commit yet.
    Unborn,
    Measured {
        trunk: Trunk,
        integration: Integration,
    },
    /// The remote's default branch is not set and both conventional
    /// names exist on it, which nothing here tells apart: not measured
    /// against a guess (test/cases/544).
    Undecided(Undecided),
}

/// What `upstream-alive` needs beside the local branches: which upstreams
/// that exist are not evidence that the remote has them, and which were
/// already gone at the start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpstreamsSeen {
    /// Upstream refs that exist but appeared since the start by something
    /// else than a fetch or push (`git update-ref`), or whose branch a
    /// fetch since found their remote no longer has (not pruned here),
    /// with why: gone, as far as the remote is concerned.
    pub appeared: BTreeMap<String, String>,
    /// Branches whose upstream was already gone at the start, with that
    /// upstream's ref (`None`: no task, or a record that does not say).
    pub gone_at_start: Option<majordomus_records::names::Names>,
    /// Upstream refs set aside because their remote is a repository on
    /// this machine that majordomus cannot read (reftable, an unknown
    /// extension), with why: whether the remote still has them is
    /// unknown, neither alive nor gone (test/cases/612).
    pub unreadable: BTreeMap<String, String>,
}

/// A remote-tracking ref moved or made since the start that holds work
/// this worktree made since the start, which HEAD does not reach and the
/// trunk does not hold: a branch pushed, then HEAD taken back
/// (test/cases/305).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aside {
    pub refname: String,
    pub commit: String,
}

/// A path a commit this worktree made since the start changed, which HEAD
/// does not reach and whose change the trunk's tip holds: work landed on
/// the trunk around HEAD (`git push origin docs:main` from a branch since
/// deleted, or squash-merged), which `scoped` judges beside the change set
/// (test/cases/349).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landed {
    pub path: majordomus_records::RepoPath,
    pub commit: String,
}

/// A local branch other than HEAD's, moved or made since the start, whose
/// work the trunk holds: its history reaches the branch's tip, or it
/// holds every path the branch changed with the branch's content (a
/// squash or rebase merge on the forge, the branch left behind here).
/// `pushed` reads the second as the branch's work on the remote, and
/// `nothing-accumulated` deletes either with `git branch -D`, which git
/// needs for a squash merge (test/cases/466).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchLanded {
    pub name: String,
    /// The branch's tip the answer was worked out for.
    pub commit: String,
    /// How many paths the branch changed that the trunk holds, where the
    /// trunk does not reach the tip (`None`: it does).
    pub held_paths: Option<usize>,
}

/// The integration family's readings. The local branches `upstream-alive`
/// is judged from are shared
/// ([`Readings::branches`](crate::readings::Readings::branches)).
#[derive(Debug)]
pub struct IntegrationReadings {
    pub integrated: Reading<Integrated>,
    /// Work pushed aside, which `integrated` asks of beside HEAD.
    pub aside: Reading<Vec<Aside>>,
    pub upstreams: Reading<UpstreamsSeen>,
    /// The task's work the trunk holds and HEAD does not, for a task that
    /// declared a scope (none otherwise): `scoped` reads it.
    pub landed: Reading<Vec<Landed>>,
    /// The local branches other than HEAD's, moved or made since the
    /// start, whose work the trunk holds (none without a task).
    pub branches_landed: Reading<Vec<BranchLanded>>,
}

impl IntegrationReadings {
    /// Every reading of the family unread for one reason.
    pub fn unread(reason: &majordomus_readings::Unread) -> Self {
        Self {
            integrated: Err(reason.clone()),
            aside: Err(reason.clone()),
            upstreams: Err(reason.clone()),
            landed: Err(reason.clone()),
            branches_landed: Err(reason.clone()),
        }
    }
}
