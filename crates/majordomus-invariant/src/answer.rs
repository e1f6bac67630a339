//! An answer: one question, its status, and what was read to give it.

use serde::{Deserialize, Serialize};

/// The five statuses (a contract: exactly these words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The reading was taken and the fact holds.
    Pass,
    /// The reading was taken; work remains that would settle it.
    Owed,
    /// The reading was taken and shows something that forbids completion.
    Refused,
    /// The reading could not be taken. Never a pass.
    Unknown,
    /// The question does not apply here, with the reason.
    Exempt,
}

impl Status {
    pub const ALL: [Status; 5] = [Status::Pass, Status::Owed, Status::Refused, Status::Unknown, Status::Exempt];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Owed => "owed",
            Status::Refused => "refused",
            Status::Unknown => "unknown",
            Status::Exempt => "exempt",
        }
    }

    /// `pass` and `exempt` settle a question; the rest keep it open.
    pub fn is_settled(self) -> bool {
        matches!(self, Status::Pass | Status::Exempt)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a remedy is: a command line that, run as written by `sh` in the
/// working tree's root, settles the question or moves it to its next
/// honest state; or advice a person must turn into work (a choice, a
/// placeholder to fill, work only they can do). Documents written before
/// the distinction read as advice: nothing promises their text runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RemedyKind {
    Command,
    #[default]
    Advice,
}

impl RemedyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RemedyKind::Command => "command",
            RemedyKind::Advice => "advice",
        }
    }

    /// The word a remedy is shown after in text: `remedy:` for a command,
    /// `advice:` for advice, so that a reader knows which runs as written.
    pub fn label(self) -> &'static str {
        match self {
            RemedyKind::Command => "remedy",
            RemedyKind::Advice => "advice",
        }
    }
}

/// One question answered, as the document carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub id: String,
    pub stage: String,
    pub question: String,
    pub status: Status,
    /// A sentence saying what was read: never just the status again.
    pub evidence: String,
    pub source: String,
    pub remedy: String,
    /// Whether `remedy` runs as written ([`RemedyKind`]).
    #[serde(default)]
    pub remedy_kind: RemedyKind,
    /// The structured evidence: paths, branch names, counts, commit ids.
    pub details: serde_json::Value,
}

impl Answer {
    /// Why the answer's reading could not be taken, when that is why it is
    /// `unknown` (`details.unread_kind`).
    pub fn unread_kind(&self) -> Option<majordomus_readings::UnreadKind> {
        self.details
            .get("unread_kind")
            .and_then(serde_json::Value::as_str)
            .and_then(majordomus_readings::UnreadKind::parse)
    }
}

/// An answer with only an id and a status that mean anything, for tests.
#[cfg(test)]
pub(crate) fn sample(id: &str, status: Status) -> Answer {
    Answer {
        id: id.into(),
        stage: "s".into(),
        question: "q?".into(),
        status,
        evidence: "e".into(),
        source: "s".into(),
        remedy: "r".into(),
        remedy_kind: RemedyKind::Advice,
        details: serde_json::json!({}),
    }
}
