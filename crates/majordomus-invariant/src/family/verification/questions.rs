//! What the verification family asks: each question's text, the source that
//! answers it, its remedy, its default cap, and what each of its statuses
//! means (`majordomus explain`). The invariant's order is kept in
//! [`crate::question::QUESTIONS`].

use crate::answer::Status::{Exempt, Owed, Pass, Refused, Unknown};
use crate::question::{QuestionDef, QuestionId, UNREAD_WITHOUT_TASK};

pub const GATES_GREEN: QuestionDef = QuestionDef {
    id: QuestionId::GatesGreen,
    stage: super::STAGE,
    question: "Has every required gate the change selects a recorded, passing run over the current inputs?",
    source: ".ai/repo/majordomus.toml + gate-run ledger",
    remedy: "majordomus gate run --all",
    cap: 5,
    needs_task: true,
    meanings: &[
        (Pass, "every required gate the change selects has a recorded run over the current inputs, and it passed; no other required gate's latest run over the current inputs is a failure the task recorded"),
        (Owed, "a selected gate was never run, or its inputs changed since its run (stale): run it"),
        (Refused, "a selected gate's recorded run over the current inputs failed, or the task recorded a required gate failing over the current inputs that the change does not select"),
        (Unknown, "the policy or the gate-run ledger could not be read, or there is no task record"),
        (Exempt, "the policy declares no gates"),
    ],
};

pub const REGRESSION_TESTED: QuestionDef = QuestionDef {
    id: QuestionId::RegressionTested,
    stage: super::STAGE,
    question: "Does the change add or edit a test?",
    source: "change set + test items in the changed files + [tests] paths",
    remedy: "add or change a test that would catch a regression of this change",
    cap: 9,
    needs_task: true,
    meanings: &[
        (Pass, "a path changed since the start is a test, or the change adds or edits a line inside a test item (explain lists what counts here)"),
        (Owed, "paths changed since the start, none of them a test, and no test item inside them gained or changed a line"),
        (Unknown, UNREAD_WITHOUT_TASK),
        (Exempt, "nothing changed since the start (or only what commits a fetch brought changed, which is not the task's), so there is nothing to test"),
    ],
};
