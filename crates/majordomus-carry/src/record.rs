//! The carry record: one run's budget, as spent so far, outside any
//! conversation.
//!
//! A session that is cut loses everything it held in its head; a run that
//! kept its merge count there would start its `--max` and its 8 hours over at
//! every cut, which is no bound at all. So the counts live here, and every
//! session of the run reads them back: `started_at` is the run's, not the
//! session's, and `merged`, `filed` and `cuts` are totals across every cut.
//!
//! A record that cannot be read as exactly this shape is *unreadable*, never
//! a fresh start: a budget that cannot be carried must stop the run, not
//! restart it.

use chrono::{DateTime, SubsecRound, Utc};
use serde::{Deserialize, Serialize};

use crate::invocation::Invocation;
use crate::owner::Owner;

/// The schema string every carry record carries.
pub const CARRY_SCHEMA: &str = "majordomus/carry/v1";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarryRecord {
    pub schema: String,
    /// The invocation in canonical form.
    pub invocation: String,
    /// The process spending the budget now.
    pub owner: Owner,
    /// When the run began (RFC 3339, UTC): the whole-run bound counts from here.
    pub started_at: DateTime<Utc>,
    /// Changes landed so far, across every cut.
    pub merged: u64,
    /// Issues filed so far, across every cut.
    pub filed: u64,
    /// How many times the run was cut.
    pub cuts: u64,
    /// A cut handed the record off and no session has taken it up yet.
    pub handed_off: bool,
}

impl CarryRecord {
    /// A new run begun by `owner` at `now` (to the second).
    pub fn begin(invocation: &Invocation, owner: Owner, now: DateTime<Utc>) -> Self {
        Self {
            schema: CARRY_SCHEMA.into(),
            invocation: invocation.as_str().into(),
            owner,
            started_at: now.trunc_subsecs(0),
            merged: 0,
            filed: 0,
            cuts: 0,
            handed_off: false,
        }
    }

    /// Reads a record from its bytes; the reason when it is not one.
    pub fn from_slice(bytes: &[u8]) -> Result<(Self, Invocation), String> {
        let record: CarryRecord = majordomus_records::json::parse(bytes)?;
        let invocation = record.invocation()?;
        Ok((record, invocation))
    }

    /// The record's invocation, parsed; the reason when it is not usable.
    pub fn invocation(&self) -> Result<Invocation, String> {
        Invocation::parse(&self.invocation).map_err(|e| {
            majordomus_records::json::bounded(&format!(
                "its invocation {:?} is not usable: {e}",
                majordomus_records::text::clamp(&self.invocation, 200)
            ))
        })
    }

    pub fn to_json(&self) -> Vec<u8> {
        // A struct of strings and integers always serializes.
        let mut bytes = serde_json::to_vec_pretty(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }
}

impl majordomus_records::json::Record for CarryRecord {
    const SCHEMA: &'static str = CARRY_SCHEMA;
    const MAX_BYTES: u64 = 1 << 20;
    fn schema(&self) -> &str {
        &self.schema
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> CarryRecord {
        let inv = Invocation::parse("backlogrun --max 5").expect("canonical");
        let owner = Owner { pid: 7, start_time: Some(99), boot_id: None };
        let at = DateTime::parse_from_rfc3339("2026-11-30T10:00:00Z").expect("date").with_timezone(&Utc);
        CarryRecord::begin(&inv, owner, at)
    }

    #[test]
    fn a_record_round_trips_through_its_bytes() {
        let record = sample();
        let (back, inv) = CarryRecord::from_slice(&record.to_json()).expect("readable");
        assert_eq!(back, record);
        assert_eq!(inv.limits().max_merged, Some(5));
    }

    #[test]
    fn a_record_of_another_schema_or_shape_is_unreadable_not_empty() {
        let mut other = sample();
        other.schema = "majordomus/carry/v0".into();
        assert!(CarryRecord::from_slice(&other.to_json()).expect_err("schema").contains("schema"));
        assert!(CarryRecord::from_slice(b"{\"schema\":\"majordomus/carry/v1\"}").is_err());
        assert!(CarryRecord::from_slice(b"half a fi").is_err());
        let text = String::from_utf8(sample().to_json()).expect("utf8").replace("\"cuts\"", "\"extra\": 1, \"cuts\"");
        assert!(CarryRecord::from_slice(text.as_bytes()).is_err());
    }

    #[test]
    fn a_record_whose_invocation_is_not_canonical_is_unreadable() {
        let mut record = sample();
        record.invocation = "backlogrun --max 05".into();
        let reason = CarryRecord::from_slice(&record.to_json()).expect_err("not canonical");
        assert!(reason.contains("backlogrun --max 5"), "{reason}");
    }
}
