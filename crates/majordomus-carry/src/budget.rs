//! `go` or `stop`, from the record alone.
//!
//! Termination is decided by what the run was told, never by a judgement
//! that enough has been done: the invocation's `--max` against `merged`, the
//! filings ceiling against `filed`, the whole-run bound against the time
//! since `started_at`. Each is read from the record, so each counts across
//! every cut — a resumed run that started its clock over would stop 8 hours
//! after the *last* cut instead of after the invocation.
//!
//! Every bound that binds is named, not just the first: a person reading a
//! `stop` learns everything that would have stopped the run.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::invocation::Limits;
use crate::record::CarryRecord;

/// The record's counts set against the invocation's bounds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BudgetReading {
    pub merged: u64,
    pub max_merged: Option<u64>,
    pub filed: u64,
    pub max_filed: u64,
    /// Seconds since `started_at` (0 when the clock reads earlier).
    pub elapsed_seconds: u64,
    pub hours: u64,
    pub cuts: u64,
    /// Every bound reached; empty means `go`.
    pub reached: Vec<Reached>,
}

/// One bound the run has reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "bound", rename_all = "kebab-case")]
pub enum Reached {
    /// `merged` reached `--max`: the run may land nothing more.
    Max { merged: u64, max: u64 },
    /// `filed` reached the filings ceiling.
    FilingCeiling { filed: u64, ceiling: u64 },
    /// The whole-run bound is spent.
    WholeRun { elapsed_seconds: u64, hours: u64 },
}

impl std::fmt::Display for Reached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reached::Max { merged, max } => write!(f, "{merged} merged of --max {max}"),
            Reached::FilingCeiling { filed, ceiling } => write!(f, "{filed} filed of the ceiling of {ceiling}"),
            Reached::WholeRun { elapsed_seconds, hours } => {
                write!(f, "{} elapsed of the {hours}h whole-run bound", duration(*elapsed_seconds))
            }
        }
    }
}

impl BudgetReading {
    pub fn read(record: &CarryRecord, limits: Limits, now: DateTime<Utc>) -> Self {
        let elapsed_seconds = elapsed_seconds(record, now);
        let mut reached = Vec::new();
        if let Some(max) = limits.max_merged {
            if record.merged >= max {
                reached.push(Reached::Max { merged: record.merged, max });
            }
        }
        if record.filed >= limits.max_filed {
            reached.push(Reached::FilingCeiling { filed: record.filed, ceiling: limits.max_filed });
        }
        if whole_run_spent(elapsed_seconds, limits.hours) {
            reached.push(Reached::WholeRun { elapsed_seconds, hours: limits.hours });
        }
        Self {
            merged: record.merged,
            max_merged: limits.max_merged,
            filed: record.filed,
            max_filed: limits.max_filed,
            elapsed_seconds,
            hours: limits.hours,
            cuts: record.cuts,
            reached,
        }
    }

    pub fn go(&self) -> bool {
        self.reached.is_empty()
    }

    /// One line: where the run stands against each bound.
    pub fn summary(&self) -> String {
        let max = match self.max_merged {
            Some(max) => format!("{} merged of --max {max}", self.merged),
            None => format!("{} merged (no --max)", self.merged),
        };
        let cuts = match self.cuts {
            1 => "1 cut".to_string(),
            n => format!("{n} cuts"),
        };
        format!(
            "{max}, {} filed of {}, {} of {}h elapsed, across {cuts}",
            self.filed,
            self.max_filed,
            duration(self.elapsed_seconds),
            self.hours
        )
    }
}

/// Seconds from the record's `started_at` to `now`, never negative.
pub fn elapsed_seconds(record: &CarryRecord, now: DateTime<Utc>) -> u64 {
    u64::try_from((now - record.started_at).num_seconds()).unwrap_or(0)
}

/// Whether `elapsed_seconds` has reached a bound of `hours`.
pub fn whole_run_spent(elapsed_seconds: u64, hours: u64) -> bool {
    elapsed_seconds >= hours.saturating_mul(3600)
}

/// `2h05m`, `0h00m`.
pub fn duration(seconds: u64) -> String {
    format!("{}h{:02}m", seconds / 3600, (seconds % 3600) / 60)
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::invocation::Invocation;
    use crate::owner::Owner;

    fn at(rfc: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc).expect("date").with_timezone(&Utc)
    }

    fn record(invocation: &str, merged: u64, filed: u64) -> (CarryRecord, Limits) {
        let inv = Invocation::parse(invocation).expect("canonical");
        let mut r =
            CarryRecord::begin(&inv, Owner { pid: 1, start_time: None, boot_id: None }, at("2026-11-30T00:00:00Z"));
        r.merged = merged;
        r.filed = filed;
        (r, inv.limits())
    }

    #[test]
    fn a_run_inside_every_bound_may_go() {
        let (r, limits) = record("run --max 3", 2, 9);
        let reading = BudgetReading::read(&r, limits, r.started_at + Duration::hours(7));
        assert!(reading.go(), "{reading:?}");
        assert_eq!(reading.summary(), "2 merged of --max 3, 9 filed of 10, 7h00m of 8h elapsed, across 0 cuts");
    }

    #[test]
    fn reaching_max_stops_the_run() {
        let (r, limits) = record("run --max 3", 3, 0);
        let reading = BudgetReading::read(&r, limits, r.started_at);
        assert_eq!(reading.reached, [Reached::Max { merged: 3, max: 3 }]);
    }

    #[test]
    fn without_max_merges_are_not_bounded() {
        let (r, limits) = record("run", 1000, 0);
        assert!(BudgetReading::read(&r, limits, r.started_at).go());
    }

    #[test]
    fn the_filing_ceiling_is_ten_unless_the_invocation_says_otherwise() {
        let (r, limits) = record("run", 0, 10);
        assert_eq!(
            BudgetReading::read(&r, limits, r.started_at).reached,
            [Reached::FilingCeiling { filed: 10, ceiling: 10 }]
        );
        let (r, limits) = record("run --max-filed 12", 0, 10);
        assert!(BudgetReading::read(&r, limits, r.started_at).go());
    }

    #[test]
    fn the_whole_run_bound_counts_from_the_runs_start_not_the_sessions() {
        let (mut r, limits) = record("run --hours 2", 0, 0);
        r.cuts = 3;
        let reading = BudgetReading::read(&r, limits, r.started_at + Duration::minutes(121));
        assert_eq!(reading.reached, [Reached::WholeRun { elapsed_seconds: 121 * 60, hours: 2 }]);
        assert_eq!(reading.reached[0].to_string(), "2h01m elapsed of the 2h whole-run bound");
    }

    #[test]
    fn every_bound_reached_is_named_not_just_the_first() {
        let (r, limits) = record("run --max 1 --max-filed 1 --hours 1", 1, 1);
        let reading = BudgetReading::read(&r, limits, r.started_at + Duration::hours(1));
        assert_eq!(reading.reached.len(), 3, "{reading:?}");
    }

    #[test]
    fn a_clock_that_reads_before_the_start_counts_no_time() {
        let (r, limits) = record("run", 0, 0);
        assert_eq!(BudgetReading::read(&r, limits, r.started_at - Duration::hours(1)).elapsed_seconds, 0);
    }
}
