//! What the scope family asks: each question's text, the source that
//! answers it, its remedy, its default cap, and what each of its statuses
//! means (`majordomus explain`). The invariant's order is kept in
//! [`crate::question::QUESTIONS`].

use crate::answer::Status::{Exempt, Pass, Refused, Unknown};
use crate::question::{QuestionDef, QuestionId};

pub const SCOPED: QuestionDef = QuestionDef {
    id: QuestionId::Scoped,
    stage: super::STAGE,
    question: "Does every path changed since the start lie inside the task's declared scope?",
    source: "task record + git",
    remedy: "revert the changes outside the scope, or grow the scope in place: majordomus scope add PATH...",
    cap: 6,
    needs_task: true,
    meanings: &[
        (Pass, "every path changed since the start lies inside the declared scope (a path only commits a fetch brought changed is not the task's, and not judged)"),
        (Refused, "a path changed since the start lies outside the scope; the evidence names it"),
        (Unknown, "a merge in progress brings a path outside the scope from its other side, whose it is read once the merge is committed; or the reading could not be taken: no task record (majordomus start), or git could not be read; the evidence says which"),
        (Exempt, "the task declared no scope, so every path is in it"),
    ],
};
