//! What the bookkeeping family asks: each question's text, the source that
//! answers it, its remedy, its default cap, and what each of its statuses
//! means (`majordomus explain`). The invariant's order is kept in
//! [`crate::question::QUESTIONS`].

use crate::answer::Status::{Owed, Pass, Refused, Unknown};
use crate::question::{QuestionDef, QuestionId, UNREAD_WITHOUT_TASK};

pub const TODOS_DONE: QuestionDef = QuestionDef {
    id: QuestionId::TodosDone,
    stage: super::STAGE,
    question: "Is every todo declared for the task done?",
    source: "task ledger",
    remedy: "majordomus todo done N",
    cap: 7,
    needs_task: true,
    meanings: &[
        (Pass, "every todo declared for the task is done"),
        (Owed, "a declared todo is not done"),
        (Unknown, "the task ledger could not be read, or there is no task record"),
    ],
};

pub const CLAIMS_RELEASED: QuestionDef = QuestionDef {
    id: QuestionId::ClaimsReleased,
    stage: super::STAGE,
    question: "Is every issue the task claimed closed or released?",
    source: "task ledger + forge observation",
    remedy: "close the claimed issues, or majordomus issue release N",
    cap: 6,
    needs_task: true,
    meanings: &[
        (Pass, "every issue the task claimed is closed or released"),
        (Owed, "a claimed issue is still open and held: close or release it"),
        (Unknown, "the ledger or the forge observation could not say whether a claimed issue is closed"),
    ],
};

pub const FILINGS_CLOSED: QuestionDef = QuestionDef {
    id: QuestionId::FilingsClosed,
    stage: super::STAGE,
    question: "Is every issue the task filed closed, or a registered limitation?",
    source: "task ledger + forge observation",
    remedy: "close the filed issues, or register each as a limitation",
    cap: 6,
    needs_task: true,
    meanings: &[
        (Pass, "every issue the task filed is closed, or is a registered limitation"),
        (Owed, "an issue the task filed is still open and is not a registered limitation"),
        (Unknown, "the ledger or the forge observation could not say whether a filed issue is closed"),
    ],
};

pub const MARKERS_LIVE: QuestionDef = QuestionDef {
    id: QuestionId::MarkersLive,
    stage: super::STAGE,
    question: "Does every LIMITATION marker added since the start name a live issue labelled limitation?",
    source: "change set + forge observation",
    remedy: "point each new LIMITATION marker at an open issue labelled limitation",
    cap: 6,
    needs_task: true,
    meanings: &[
        (Pass, "every LIMITATION marker added since the start names an open issue labelled limitation"),
        (Refused, "a marker added since the start names no issue, a closed one, a pull request, or one not labelled limitation"),
        (Unknown, "the change set or the forge observation could not be read, so a new marker cannot be verified"),
    ],
};

pub const NO_BACKGROUND_WORK: QuestionDef = QuestionDef {
    id: QuestionId::NoBackgroundWork,
    stage: super::STAGE,
    question: "Is no background process the task registered still running?",
    source: "task ledger + hook input",
    remedy: "wait for the background work to end, or stop it",
    cap: 7,
    needs_task: true,
    meanings: &[
        (
            Pass,
            "no background process the task registered, and none the agent reported at its last stop, is still running",
        ),
        (Owed, "background work is still running: wait for it to end, or stop it"),
        (Unknown, "the ledger could not be read, or a registered process could not be looked at"),
    ],
};

pub const MEASURABLE: QuestionDef = QuestionDef {
    id: QuestionId::Measurable,
    stage: super::STAGE,
    question: "Did the task make a commit that changes something, or declare a todo?",
    source: "git + task ledger",
    remedy: "commit the work, or declare it: majordomus todo add TEXT",
    cap: 9,
    needs_task: true,
    meanings: &[
        (Pass, "the task made a commit that changes HEAD's tree from the start commit's (a commit a fetch brought is not the task's), or declared a todo, so there is something to measure"),
        (Owed, "nothing measurable: no commit the task made since the start changes anything (empty commits count for nothing, commits a fetch brought are not the task's) and no todo is declared"),
        (Unknown, UNREAD_WITHOUT_TASK),
    ],
};
