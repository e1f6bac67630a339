//! The three closing readings (seed 002): no-new-debt, nothing-accumulated,
//! backlog-not-grown. Not measured yet: issue 3 builds them here.

use majordomus_readings::Repo;
use majordomus_records::policy::Policy;
use majordomus_records::task::TaskState;
use majordomus_records::StatePaths;

/// The closing readings, each a `Result` of its own.
#[derive(Debug, Default)]
pub struct ClosingReadings {}

pub fn measure(_repo: &Repo, _paths: &StatePaths, _policy: &Policy, _task: &TaskState) -> ClosingReadings {
    ClosingReadings {}
}
