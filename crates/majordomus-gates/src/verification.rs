//! The verification readings: the gates the change selects and their recorded
//! runs. Not measured yet: issue 4 builds them here.

use majordomus_readings::Repo;
use majordomus_records::policy::Policy;
use majordomus_records::task::TaskState;
use majordomus_records::StatePaths;

/// The verification readings, each a `Result` of its own.
#[derive(Debug, Default)]
pub struct VerificationReadings {}

impl VerificationReadings {
    /// Every reading of the family unread for one reason: what measurement
    /// gives when the time budget ran out before the family was read.
    pub fn unread(_reason: &majordomus_readings::Unread) -> Self {
        Self {}
    }
}

pub fn measure(_repo: &Repo, _paths: &StatePaths, _policy: &Policy, _task: &TaskState) -> VerificationReadings {
    VerificationReadings {}
}
