//! The words `majordomus carry` answers with (a contract), and what each
//! tells the loop that asked.
//!
//! A verdict is one word on standard output so a script can branch on it;
//! the explanation goes to standard error for the person reading along. Each
//! word belongs to one [`Class`], and the class is the exit code: the loop
//! may go on, it must stop, or nothing could be established.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Nothing was carried: a new run begins with this session.
    Began,
    /// This session continues a run a cut handed off or a resume adopted.
    Resumed,
    /// The owner still runs and nothing handed the record off: stop.
    Busy,
    /// A record nobody handed off, its owner dead: a person decides.
    Standing,
    /// The record is a different invocation's: stop.
    Mismatch,
    /// The whole-run bound is spent: the run ends.
    Expired,
    /// The record cannot be read: stop.
    Unreadable,
    /// The repository's git directory cannot be read: nothing established.
    Unknown,
    /// The budget has room.
    Go,
    /// A bound is reached (or nothing carries the budget).
    Stop,
    /// A count was added.
    Counted,
    /// The record was handed off.
    Cut,
    /// The record was removed.
    Ended,
    /// There was no record.
    Absent,
}

/// What a verdict means for the loop, and so its exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Go on: exit 0.
    Proceed,
    /// Stop, the reading was taken: exit 10.
    Halt,
    /// Nothing could be read: exit 13.
    Unread,
}

impl Verdict {
    pub const ALL: [Verdict; 14] = [
        Verdict::Began,
        Verdict::Resumed,
        Verdict::Busy,
        Verdict::Standing,
        Verdict::Mismatch,
        Verdict::Expired,
        Verdict::Unreadable,
        Verdict::Unknown,
        Verdict::Go,
        Verdict::Stop,
        Verdict::Counted,
        Verdict::Cut,
        Verdict::Ended,
        Verdict::Absent,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Verdict::Began => "began",
            Verdict::Resumed => "resumed",
            Verdict::Busy => "busy",
            Verdict::Standing => "standing",
            Verdict::Mismatch => "mismatch",
            Verdict::Expired => "expired",
            Verdict::Unreadable => "unreadable",
            Verdict::Unknown => "unknown",
            Verdict::Go => "go",
            Verdict::Stop => "stop",
            Verdict::Counted => "counted",
            Verdict::Cut => "cut",
            Verdict::Ended => "ended",
            Verdict::Absent => "absent",
        }
    }

    pub fn class(self) -> Class {
        match self {
            Verdict::Began
            | Verdict::Resumed
            | Verdict::Go
            | Verdict::Counted
            | Verdict::Cut
            | Verdict::Ended
            | Verdict::Absent => Class::Proceed,
            Verdict::Busy | Verdict::Standing | Verdict::Mismatch | Verdict::Expired | Verdict::Stop => Class::Halt,
            Verdict::Unreadable | Verdict::Unknown => Class::Unread,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_words_are_a_contract() {
        let words: Vec<_> = Verdict::ALL.iter().map(|v| v.word()).collect();
        assert_eq!(
            words,
            [
                "began",
                "resumed",
                "busy",
                "standing",
                "mismatch",
                "expired",
                "unreadable",
                "unknown",
                "go",
                "stop",
                "counted",
                "cut",
                "ended",
                "absent"
            ]
        );
    }

    #[test]
    fn only_began_resumed_and_go_let_a_loop_open_a_lane() {
        let go_on: Vec<_> = [
            Verdict::Began,
            Verdict::Resumed,
            Verdict::Busy,
            Verdict::Standing,
            Verdict::Mismatch,
            Verdict::Expired,
            Verdict::Go,
            Verdict::Stop,
        ]
        .into_iter()
        .filter(|v| v.class() == Class::Proceed)
        .collect();
        assert_eq!(go_on, [Verdict::Began, Verdict::Resumed, Verdict::Go]);
        assert_eq!(Verdict::Unreadable.class(), Class::Unread);
        assert_eq!(Verdict::Unknown.class(), Class::Unread);
    }
}
