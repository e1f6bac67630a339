//! The time budget a measurement runs within.

use majordomus_readings::{Reading, Unread};

/// When measuring has to stop. A stop hook answers within its host's
/// timeout or not at all, so it measures within a budget: past the deadline
/// every reading not yet taken is [`Unread`], naming the budget, and its
/// question answers `unknown` like any other reading that was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    at: Option<(std::time::Instant, u64)>,
}

impl Deadline {
    /// No deadline: every reading is taken.
    pub const NONE: Deadline = Deadline { at: None };

    /// `budget_ms` milliseconds after `start`.
    pub fn after(start: std::time::Instant, budget_ms: u64) -> Self {
        Deadline { at: Some((start + std::time::Duration::from_millis(budget_ms), budget_ms)) }
    }

    /// `Err` once the deadline has passed, with the reason a reading gives.
    pub fn check(&self) -> Result<(), Unread> {
        match self.at {
            Some((at, budget_ms)) if std::time::Instant::now() >= at => Err(Unread::budget(budget_ms)),
            _ => Ok(()),
        }
    }

    /// Takes a reading unless the deadline has passed.
    pub fn read<T>(&self, reading: impl FnOnce() -> Reading<T>) -> Reading<T> {
        self.check()?;
        reading()
    }
}
