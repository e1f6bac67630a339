//! A question judged, before its question's own fields make it an
//! [`Answer`](crate::answer::Answer): the status, the evidence sentence, the
//! same facts as data, and a remedy fitted to what was read.
//!
//! Every family's judging returns one of these; `src/done.rs` turns them
//! into answers. The two ways a question is `unknown` for want of a reading
//! are written here once: a reading not taken ([`Judgement::unread`]) and
//! no task record to measure from ([`without_task`]).

use serde_json::json;

use majordomus_readings::{Unread, UnreadKind, NO_TASK};
use majordomus_records::task::{TaskRecord, TaskState};

use crate::answer::{RemedyKind, Status};
use crate::prose::sentence;

/// A question judged: everything of an answer but the question's own fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    pub status: Status,
    pub evidence: String,
    pub details: serde_json::Value,
    /// A remedy fitted to this reading; the question's own when `None`.
    pub remedy: Option<String>,
    /// Whether that remedy runs as written; the question's own is advice.
    pub remedy_kind: RemedyKind,
}

impl Judgement {
    pub fn new(status: Status, evidence: impl Into<String>, details: serde_json::Value) -> Self {
        Self { status, evidence: evidence.into(), details, remedy: None, remedy_kind: RemedyKind::Advice }
    }

    /// The same judgement with advice fitted to what was read: words a
    /// person turns into work, never run as they stand.
    pub fn remedy(mut self, advice: impl Into<String>) -> Self {
        self.remedy = Some(advice.into());
        self.remedy_kind = RemedyKind::Advice;
        self
    }

    /// The same judgement with a command fitted to what was read: a line
    /// that, run as written by `sh` in the working tree's root, settles the
    /// question or moves it to its next honest state (test/cases/ follow
    /// each one to the letter).
    pub fn command(mut self, command: impl Into<String>) -> Self {
        self.remedy = Some(command.into());
        self.remedy_kind = RemedyKind::Command;
        self
    }

    /// A reading that could not be taken: `unknown`, with its reason and kind.
    pub fn unread(unread: &Unread) -> Self {
        Self::new(
            Status::Unknown,
            sentence(&unread.reason),
            json!({ "unread": unread.reason, "unread_kind": unread.kind.as_str() }),
        )
    }
}

/// The judgement of a question that needs a task record when there is none
/// to read; `None` when there is one.
pub fn without_task(task: &TaskState) -> Option<Judgement> {
    match task {
        TaskState::Active(_) => None,
        TaskState::None => Some(no_task()),
        TaskState::Unreadable(reason) => Some(unreadable_task(reason)),
    }
}

/// Judges with the task record, or answers as [`without_task`] says.
pub fn with_task(task: &TaskState, judge: impl FnOnce(&TaskRecord) -> Judgement) -> Judgement {
    match task {
        TaskState::Active(record) => judge(record),
        TaskState::None => no_task(),
        TaskState::Unreadable(reason) => unreadable_task(reason),
    }
}

fn no_task() -> Judgement {
    Judgement::new(
        Status::Unknown,
        sentence(NO_TASK),
        json!({ "task": null, "unread_kind": UnreadKind::NoTask.as_str() }),
    )
    .remedy("majordomus start TASK")
}

fn unreadable_task(reason: &str) -> Judgement {
    Judgement::new(
        Status::Unknown,
        sentence(reason),
        json!({ "task": null, "unread": reason, "unread_kind": UnreadKind::Record.as_str() }),
    )
    .remedy("repair .ai/local/state/task.json, or end the task with majordomus finish --outcome partial (or blocked, failed), which archives what is there")
}

/// `a` with the keys of `b` added (both JSON objects).
pub fn with(mut a: serde_json::Value, b: serde_json::Value) -> serde_json::Value {
    if let (Some(a), serde_json::Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}
