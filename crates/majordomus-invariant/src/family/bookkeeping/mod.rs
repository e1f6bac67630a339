//! The bookkeeping family: `todos-done`, `claims-released`,
//! `filings-closed`, `markers-live`, `no-background-work`, `measurable`, and
//! the acknowledgements (`majordomus ack`) of evidence that is not the
//! task's.
//!
//! Two kinds of unfinished work leave no trace in git: what the task
//! promised (a todo, an issue it claimed or filed) and what it set running
//! (a background process). Both are written to the ledger as they happen,
//! by `majordomus todo`, `issue`, `bg` and `ack`, and read back here,
//! folded into a [`TaskBook`]. Only the current task's entries count: the
//! ledger belongs to the working tree and outlives any one task.
//!
//! An issue's state is never asked of the network here: it is read from the
//! recorded forge observation, and an observation older than the claim or
//! the filing it would settle says nothing about it. A marker is read from
//! the change itself (see `majordomus_readings::markers`), so only the
//! markers this task added are held against it.
//!
//! `readings.rs` takes the readings; `judge.rs` judges them; `ack.rs`
//! applies the acknowledgements to the questions they can settle.

use majordomus_readings::markers::Marker;
use majordomus_readings::{Reading, Unread};
use majordomus_records::forge::Observation;

pub mod ack;
pub mod background;
pub mod judge;
pub mod made;
pub mod questions;
pub mod readings;

use readings::{ProcessSeen, TaskBook};

/// The stage the documents name for this family's questions.
pub const STAGE: &str = "bookkeeping";

/// The bookkeeping readings, each a `Result` of its own.
#[derive(Debug)]
pub struct BookkeepingReadings {
    /// The current task's ledger entries, folded.
    pub book: Reading<TaskBook>,
    /// The recorded forge observation; `Ok(None)` when the forge was never observed.
    pub forge: Reading<Option<Observation>>,
    /// The markers on lines added since the start, in files the register scans.
    pub markers_added: Reading<Vec<Marker>>,
    /// Every marker in the files the register scans now. Taken only when the
    /// task filed an issue (it is what makes a filing a registered
    /// limitation); `None` when it was not needed.
    pub register: Option<Reading<Vec<Marker>>>,
    /// Each background process the task registered, and whether it still runs.
    pub processes: Reading<Vec<ProcessSeen>>,
    /// Commits on HEAD since the start commit: listed ids and the count;
    /// where a fetch brought some ([`Self::arrived`]), the task's own.
    pub commits_since_start: Reading<(Vec<String>, usize)>,
    /// Whether HEAD's tree differs from the start commit's: commits that
    /// change nothing (`git commit --allow-empty`) are not measurable work.
    /// Where a fetch brought commits onto HEAD, whether it differs at a
    /// path the task's own commits changed.
    pub tree_changed: Reading<bool>,
    /// What a fetch brought onto HEAD since the start, not counted.
    pub arrived: Option<readings::Arrived>,
    /// What the task made (`made.rs`), which no acknowledgement covers.
    /// Taken only when the task acknowledged something; `None` otherwise.
    pub made: Option<Reading<made::Made>>,
}

impl BookkeepingReadings {
    /// Every reading of the family unread for one reason: what measurement
    /// gives when the time budget ran out before the family was read.
    pub fn unread(reason: &Unread) -> Self {
        Self {
            book: Err(reason.clone()),
            forge: Err(reason.clone()),
            markers_added: Err(reason.clone()),
            register: Some(Err(reason.clone())),
            processes: Err(reason.clone()),
            commits_since_start: Err(reason.clone()),
            tree_changed: Err(reason.clone()),
            arrived: None,
            made: Some(Err(reason.clone())),
        }
    }
}
