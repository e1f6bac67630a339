//! The verification family: `gates-green`, `regression-tested`, and the
//! policy's extra questions. Has the change been verified by what the
//! repository declares (its gates, run by `majordomus gate run`), and does
//! it touch a test?
//!
//! A gate's run is a fact majordomus recorded itself; a run counts only
//! over its inputs exactly as they are now. Only the gates the change
//! selects are hashed, so `check` stays fast when the change touches
//! nothing a gate covers.

use majordomus_readings::{Reading, Unread};

pub mod copied;
pub mod extra;
pub mod judge;
pub mod moved;
pub mod questions;
pub mod readings;
pub mod test_code;
pub mod test_path;

use readings::GateSet;
use test_code::changed::TestCode;
use test_path::TestRules;

/// The stage the documents name for this family's questions.
pub const STAGE: &str = "verification";

/// The verification readings, each a `Result` of its own.
#[derive(Debug)]
pub struct VerificationReadings {
    /// Every declared gate, with what the change says of it. `Ok` with no
    /// gate when the policy declares none (nothing else was read then).
    pub gates: Reading<GateSet>,
    /// The test paths changed since the start that no longer exist in the
    /// working tree: deleted, so no test is in them.
    pub gone: Reading<Vec<majordomus_records::RepoPath>>,
    /// The path rule in force: the conventions and the policy's `[tests] paths`.
    pub test_rules: TestRules,
    /// Test code added or edited inside changed files that are not test
    /// paths; `Ok(None)` when a test path still there was changed, so it
    /// was not read.
    pub test_code: Reading<Option<TestCode>>,
    /// The test paths changed since the start, still there, that add or
    /// edit no test, each with why ([`NotNew`]).
    pub not_new: Reading<std::collections::BTreeMap<majordomus_records::RepoPath, NotNew>>,
}

/// Why a test path changed since the start, still there, adds or edits no
/// test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotNew {
    /// Its content is what a test path held at the start: its own (a mode
    /// change, an edit undone), or a deleted one's (a move) (test/cases/350).
    Holds(majordomus_records::RepoPath),
    /// Its content is what one of the newest commits a fetch brought since
    /// the start holds there: a colleague's, pulled, whatever the task's
    /// own commits did to it on the way (test/cases/520).
    Arrived,
    /// It holds no line, blank ones aside, that its content at the start
    /// did not, nor that of the newest commits a fetch brought: an empty
    /// placeholder (`touch tests/.gitkeep`), blank lines or indentation,
    /// lines only taken out (test/cases/405), a colleague's test pulled in
    /// (test/cases/519).
    NoLineAdded,
    /// Each line it holds that its content at the start did not only turns
    /// a test off (test/cases/480, 489): the first such, by its 1-based
    /// line and its words.
    TurnedOff { line: usize, words: String },
    /// Each line it holds that its content at the start did not, blank
    /// ones aside, is one the change took out of it or of another path: a
    /// test moved, re-indented or merged from others, not written
    /// (test/cases/524).
    Moved,
    /// Its content is a copy of a file outside a test path (the path
    /// given): in the index, or a path the change holds as it is now, was
    /// at the start or is in HEAD, its lines compared without the space
    /// around them. A source copied into a test path (`cp src/lib.rs
    /// tests/lib_test.rs`) writes no test (test/cases/620).
    Copies(majordomus_records::RepoPath),
    /// It is a symbolic link leading outside the working tree, nowhere, or
    /// to what is no file: its blob is a path, and it holds no test a
    /// clone runs (test/cases/570).
    Link,
    /// It is a symbolic link leading to a file in the working tree (the
    /// path given) whose content the start did not hold there: a link
    /// writes no line of its own, so what it leads to counts at its own
    /// path, where that is a test path the task wrote, and a link to the
    /// fix's own source (`ln -s ../src/fix.rs tests/fix_test.rs`) writes
    /// no test (test/cases/576).
    LinkTo(majordomus_records::RepoPath),
    /// It is a directory in the working tree: a submodule (git records a
    /// commit id there, a gitlink, added, moved or bumped) or a repository
    /// of its own, whose files are that repository's, not a test file the
    /// task wrote (test/cases/575).
    NoFile,
}

impl VerificationReadings {
    /// Every reading of the family unread for one reason: what measurement
    /// gives when the time budget ran out before the family was read.
    pub fn unread(reason: &Unread) -> Self {
        Self {
            gates: Err(reason.clone()),
            gone: Err(reason.clone()),
            test_rules: TestRules::default(),
            test_code: Err(reason.clone()),
            not_new: Err(reason.clone()),
        }
    }
}
