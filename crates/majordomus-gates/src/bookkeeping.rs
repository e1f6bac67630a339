//! The bookkeeping readings: todos, claims, filings, markers, background work.
//! Not measured yet: issue 5 builds them here.

use majordomus_readings::Repo;
use majordomus_records::policy::Policy;
use majordomus_records::task::TaskState;
use majordomus_records::StatePaths;

/// The bookkeeping readings, each a `Result` of its own.
#[derive(Debug, Default)]
pub struct BookkeepingReadings {}

pub fn measure(_repo: &Repo, _paths: &StatePaths, _policy: &Policy, _task: &TaskState) -> BookkeepingReadings {
    BookkeepingReadings {}
}
