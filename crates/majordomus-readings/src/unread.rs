//! A reading that could not be taken: its kind, for code to act on, and its
//! reason, a sentence for a person to read.
//!
//! The kind is what the judging and the hooks decide by (a budget cut-off is
//! told to the agent apart from a missing task record); the reason is only
//! ever shown. Nothing compares reasons or their beginnings.

/// Why a reading could not be taken, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnreadKind {
    /// No task record says where the work started (`majordomus start`).
    NoTask,
    /// The time budget ran out before the reading was taken.
    Budget,
    /// Git (the git library) could not read what was asked of it.
    Git,
    /// The file system refused a read.
    Io,
    /// One of majordomus's own records (task record, ledger, forge
    /// observation) could not be read, or does not hold the part asked for.
    Record,
    /// The repository does not hold what the reading needs: a start commit
    /// gone, no remote-tracking trunk, a path that is not UTF-8, a format
    /// the git library does not read.
    Repository,
    /// What the policy declares cannot be used (a glob, a pattern, a gate
    /// it does not declare).
    Policy,
}

impl UnreadKind {
    pub const ALL: [UnreadKind; 7] = [
        UnreadKind::NoTask,
        UnreadKind::Budget,
        UnreadKind::Git,
        UnreadKind::Io,
        UnreadKind::Record,
        UnreadKind::Repository,
        UnreadKind::Policy,
    ];

    /// The kind named `name` in a document, if it is one.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The kind's name in documents (`details.unread_kind`).
    pub fn as_str(self) -> &'static str {
        match self {
            UnreadKind::NoTask => "no-task",
            UnreadKind::Budget => "budget",
            UnreadKind::Git => "git",
            UnreadKind::Io => "io",
            UnreadKind::Record => "record",
            UnreadKind::Repository => "repository",
            UnreadKind::Policy => "policy",
        }
    }
}

impl std::fmt::Display for UnreadKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A reading that could not be taken, and why. Never a pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Unread {
    pub kind: UnreadKind,
    pub reason: String,
}

/// The reason a reading gives when there is no task record: the one place
/// this sentence is written.
pub const NO_TASK: &str = "no task record says where this work started";

impl Unread {
    pub fn new(kind: UnreadKind, reason: impl Into<String>) -> Self {
        Self { kind, reason: reason.into() }
    }

    /// An unread reading caused by a git error, with what was being read.
    pub fn git(what: &str, e: &git2::Error) -> Self {
        Self::new(UnreadKind::Git, format!("could not read {what}: {}", e.message()))
    }

    /// The file system refused a read; `reason` names what and why.
    pub fn io(reason: impl Into<String>) -> Self {
        Self::new(UnreadKind::Io, reason)
    }

    /// The repository does not hold what the reading needs.
    pub fn repository(reason: impl Into<String>) -> Self {
        Self::new(UnreadKind::Repository, reason)
    }

    /// One of majordomus's own records could not be read.
    pub fn record(reason: impl Into<String>) -> Self {
        Self::new(UnreadKind::Record, reason)
    }

    /// What the policy declares cannot be used.
    pub fn policy(reason: impl Into<String>) -> Self {
        Self::new(UnreadKind::Policy, reason)
    }

    /// No task record says where the work started.
    pub fn no_task() -> Self {
        Self::new(UnreadKind::NoTask, NO_TASK)
    }

    /// The task's start commit is not in this repository.
    pub fn start_commit_missing(commit: &str) -> Self {
        Self::repository(format!("the start commit {commit} is not in this repository"))
    }

    /// The time budget of `budget_ms` ran out before this was read.
    pub fn budget(budget_ms: u64) -> Self {
        Self::new(UnreadKind::Budget, format!("the time budget of {budget_ms} ms ran out before this was read"))
    }
}

/// The result of one reading.
pub type Reading<T> = Result<T, Unread>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_read_back_from_its_name_in_a_document() {
        for kind in UnreadKind::ALL {
            assert_eq!(UnreadKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(UnreadKind::parse("budget-ish"), None);
    }

    #[test]
    fn a_budget_cut_off_is_told_by_its_kind_and_says_the_budget() {
        let cut = Unread::budget(250);
        assert_eq!(cut.kind, UnreadKind::Budget);
        assert_eq!(cut.reason, "the time budget of 250 ms ran out before this was read");
        assert_eq!(Unread::no_task().kind, UnreadKind::NoTask);
    }
}
