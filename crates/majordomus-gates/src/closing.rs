//! The three closing readings (seed 002): no-new-debt, nothing-accumulated,
//! backlog-not-grown. Not measured yet: issue 3 builds them here.

use majordomus_readings::Repo;
use majordomus_records::policy::Policy;
use majordomus_records::task::TaskState;
use majordomus_records::StatePaths;

/// The closing readings, each a `Result` of its own.
#[derive(Debug, Default)]
pub struct ClosingReadings {}

impl ClosingReadings {
    /// Every reading of the family unread for one reason: what measurement
    /// gives when the time budget ran out before the family was read.
    pub fn unread(_reason: &majordomus_readings::Unread) -> Self {
        Self {}
    }
}

pub fn measure(_repo: &Repo, _paths: &StatePaths, _policy: &Policy, _task: &TaskState) -> ClosingReadings {
    ClosingReadings {}
}
