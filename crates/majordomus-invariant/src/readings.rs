//! Everything `check` read, each reading on its own: what every family
//! shares (HEAD, the working tree's status, the change set since the start,
//! the local branches), then one part
//! per family (`src/family/*/mod.rs`). `src/measure.rs` takes them;
//! `src/done.rs` and the families' `judge.rs` judge them.

use majordomus_readings::changes::ChangeSet;
use majordomus_readings::refs::{Branch, Head};
use majordomus_readings::status::WorkingTree;
use majordomus_readings::{Reading, Unread};
use majordomus_records::task::{TaskRecord, TaskState};

use crate::family::bookkeeping::BookkeepingReadings;
use crate::family::closing::ClosingReadings;
use crate::family::commit::CommitReadings;
use crate::family::integration::IntegrationReadings;
use crate::family::verification::VerificationReadings;

/// Everything `check` read, each reading on its own.
#[derive(Debug)]
pub struct Readings {
    pub task: TaskState,
    /// The calendar date `check` ran on (the later of the local one and
    /// UTC's, `exemptions::today`): exemptions hold until a date.
    pub today: chrono::NaiveDate,
    pub head: Reading<Head>,
    pub tree: Reading<WorkingTree>,
    /// Paths changed since the start, and those inherited from before it.
    pub changes: Reading<ChangeSet>,
    /// Every local branch and its upstream.
    pub branches: Reading<Vec<Branch>>,
    pub commit: CommitReadings,
    pub integration: IntegrationReadings,
    pub verification: VerificationReadings,
    pub closing: ClosingReadings,
    pub bookkeeping: BookkeepingReadings,
}

impl Readings {
    /// The readings of a repository that cannot be opened (a format the git
    /// library cannot read): every one unread, for that reason.
    pub fn unreadable(task: TaskState, reason: &str) -> Readings {
        let unread = || Unread::repository(reason);
        let why = unread();
        Readings {
            task,
            today: crate::exemptions::today(),
            head: Err(unread()),
            tree: Err(unread()),
            changes: Err(unread()),
            branches: Err(unread()),
            commit: CommitReadings::unread(&why),
            integration: IntegrationReadings::unread(&why),
            verification: VerificationReadings::unread(&why),
            closing: ClosingReadings::unread(&why),
            bookkeeping: BookkeepingReadings::unread(&why),
        }
    }
}

/// The task record as a reading: unread, with why, when there is none.
pub fn task_reading(task: &TaskState) -> Reading<&TaskRecord> {
    match task {
        TaskState::Active(r) => Ok(r.as_ref()),
        TaskState::None => Err(Unread::no_task()),
        TaskState::Unreadable(reason) => Err(Unread::record(reason.clone())),
    }
}
