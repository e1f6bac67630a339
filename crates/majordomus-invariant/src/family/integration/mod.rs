//! The integration family: `integrated`, `upstream-alive`. Has the work
//! landed on the trunk, and does no branch track an upstream that is gone?
//!
//! The trunk is chosen as `majordomus_readings::refs::trunk` says (the
//! policy's `[trunk]`, else the remote's default branch, else a
//! conventional name); work reaches it by a merge, or by a squash or rebase
//! merge that holds HEAD's changes with the same content. Neither question
//! needs a task record.

use majordomus_readings::refs::{Integration, Trunk};
use majordomus_readings::Reading;

pub mod judge;
pub mod questions;
pub mod readings;

/// The stage the documents name for this family's questions.
pub const STAGE: &str = "integration";

/// Whether the trunk holds HEAD's work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Integrated {
    /// HEAD has no commit yet.
    Unborn,
    Measured {
        trunk: Trunk,
        integration: Integration,
    },
}

/// The integration family's readings. The local branches `upstream-alive`
/// is judged from are shared
/// ([`Readings::branches`](crate::readings::Readings::branches)).
#[derive(Debug)]
pub struct IntegrationReadings {
    pub integrated: Reading<Integrated>,
}

impl IntegrationReadings {
    /// Every reading of the family unread for one reason.
    pub fn unread(reason: &majordomus_readings::Unread) -> Self {
        Self { integrated: Err(reason.clone()) }
    }
}
