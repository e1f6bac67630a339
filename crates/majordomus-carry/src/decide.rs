//! Every verdict, decided from what was read: no I/O here.
//!
//! The record's store reads the file and the probe reads the owner's
//! process; what they found is a [`Found`], and each function below turns it
//! and the caller's request into a [`Decision`]: the verdict, the sentence
//! that explains it, and the one write (if any) that follows. Requests that
//! cannot be honoured at all — a count from a process that is not the owner,
//! a count after a cut — are a [`Refusal`], and nothing is written.
//!
//! The order of the questions in [`begin`] is the contract's:
//! a record of another invocation is a `mismatch` whoever owns it; a record
//! handed off by a cut (or owned by the caller itself) is this run's own, so
//! it is `resumed`, or `expired` when its bound is spent; otherwise a live
//! owner is `busy`, and a dead one leaves a `standing` record for a person
//! to settle — except a spent one, which a person retyping the invocation is
//! starting over, so it is replaced and the answer is `began`.

use chrono::{DateTime, Utc};

use crate::budget::{self, duration, BudgetReading};
use crate::invocation::Invocation;
use crate::owner::{same_process, Owner, OwnerState};
use crate::record::CarryRecord;
use crate::verdict::Verdict;

/// What the record's file held, with its owner judged.
#[derive(Debug, Clone)]
pub enum Found {
    Absent,
    /// The file exists but is not a usable record; the reason says why.
    Unreadable(String),
    Present(Box<Present>),
}

#[derive(Debug, Clone)]
pub struct Present {
    pub record: CarryRecord,
    /// The record's own invocation, parsed: its budget.
    pub invocation: Invocation,
    /// The recorded owner judged against what runs now.
    pub owner: OwnerState,
}

/// A verdict, why, and what to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    pub explanation: String,
    pub write: Write,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    Nothing,
    Save(Box<CarryRecord>),
    Remove,
}

/// A request refused: nothing is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("there is no carry record here: `majordomus carry begin` claims one")]
    NoRecord,
    #[error("there is no carry record here to resume: `majordomus carry begin` claims one")]
    NothingToResume,
    #[error("the record was cut and handed off: after a cut this session may write nothing more to it")]
    AfterCut,
    #[error("the record belongs to {recorded}, not to {caller}: only the owning process may count into or cut it")]
    NotOwner { recorded: Owner, caller: Owner },
}

impl Decision {
    fn new(verdict: Verdict, explanation: impl Into<String>, write: Write) -> Self {
        Self { verdict, explanation: explanation.into(), write }
    }

    /// A verdict that writes nothing.
    pub fn say(verdict: Verdict, explanation: impl Into<String>) -> Self {
        Self::new(verdict, explanation, Write::Nothing)
    }
}

fn unreadable(reason: &str) -> Decision {
    Decision::new(
        Verdict::Unreadable,
        format!("the carry record cannot be read ({reason}); stop before opening a lane, and `majordomus carry end` discards it once a person has looked"),
        Write::Nothing,
    )
}

fn mismatch(p: &Present, requested: &Invocation) -> Decision {
    let owner = if p.owner.held_alive() {
        format!("its owner, {}, still runs", p.record.owner)
    } else {
        format!("its owner, {}, is gone", p.record.owner)
    };
    Decision::new(
        Verdict::Mismatch,
        format!(
            "the record here is for {:?}, not {:?} ({owner}); stop, and end it with `majordomus carry end` once you know that run is over",
            p.record.invocation,
            requested.as_str()
        ),
        Write::Nothing,
    )
}

fn spent(p: &Present, now: DateTime<Utc>) -> Option<String> {
    let elapsed = budget::elapsed_seconds(&p.record, now);
    let hours = p.invocation.limits().hours;
    budget::whole_run_spent(elapsed, hours)
        .then(|| format!("{} elapsed of the {hours}h whole-run bound", duration(elapsed)))
}

fn adopted(p: &Present, caller: &Owner) -> Box<CarryRecord> {
    let mut record = p.record.clone();
    record.owner = caller.clone();
    record.handed_off = false;
    Box::new(record)
}

fn totals(record: &CarryRecord) -> String {
    let cuts = if record.cuts == 1 { "1 cut".to_string() } else { format!("{} cuts", record.cuts) };
    format!("{} merged, {} filed, {cuts} so far", record.merged, record.filed)
}

fn since(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// `carry begin INVOCATION --owner PID`.
/// A begin, with no record standing, from the process that owned a run of
/// the same invocation that `carry end` ended: the same run, not a new
/// one, so it takes up what it had spent (its counts and its start, which
/// the whole-run bound counts from). Ending a spent run and beginning it
/// again from where it ran is no way to a fresh budget; a new run is begun
/// by another process (a new session, a person's new shell).
pub fn begin_again(ended: CarryRecord, invocation: Invocation, caller: &Owner, now: DateTime<Utc>) -> Decision {
    let p = Present { record: ended, invocation, owner: OwnerState::Running };
    if let Some(spent) = spent(&p, now) {
        return Decision::new(
            Verdict::Expired,
            format!(
                "this process ended this run ({}), and its whole-run bound is spent ({spent}): a begin from the process that ended it is the same run; report it and stop",
                totals(&p.record)
            ),
            Write::Nothing,
        );
    }
    Decision::new(
        Verdict::Resumed,
        format!(
            "this process ended this run, begun {}, with `majordomus carry end`: a begin from the same process takes it up again with what it had spent ({}); take the budget from `majordomus carry show --json` (a new run is begun by another process, a new session)",
            since(p.record.started_at),
            totals(&p.record)
        ),
        Write::Save(adopted(&p, caller)),
    )
}

/// The history of ended runs cannot be read: whether this process ended a
/// run of this invocation, whose spending a begin would take up, is not
/// known.
pub fn history_unreadable(reason: &str) -> Decision {
    Decision::new(
        Verdict::Unreadable,
        format!("the history of ended runs cannot be read ({reason}): whether this process already ran this invocation is not known; stop"),
        Write::Nothing,
    )
}

pub fn begin(found: &Found, requested: &Invocation, caller: &Owner, now: DateTime<Utc>) -> Decision {
    let p = match found {
        Found::Absent => {
            return Decision::new(
                Verdict::Began,
                format!("nothing was carried: a new run of {:?} begins, owned by {caller}", requested.as_str()),
                Write::Save(Box::new(CarryRecord::begin(requested, caller.clone(), now))),
            )
        }
        Found::Unreadable(reason) => return unreadable(reason),
        Found::Present(p) => p,
    };
    if p.record.invocation != requested.as_str() {
        return mismatch(p, requested);
    }
    let own = p.record.handed_off || same_process(&p.record.owner, caller);
    if own {
        if let Some(spent) = spent(p, now) {
            return Decision::new(
                Verdict::Expired,
                format!("this run's whole-run bound is spent ({spent}): report it and stop, and clear the record with `majordomus carry end` once the run is over"),
                Write::Nothing,
            );
        }
        let how = if p.record.handed_off { "a cut handed it off" } else { "this process already owns it" };
        return Decision::new(
            Verdict::Resumed,
            format!("this session continues the run begun {} ({how}): {}; take the budget from `majordomus carry show --json`", since(p.record.started_at), totals(&p.record)),
            Write::Save(adopted(p, caller)),
        );
    }
    if p.owner.held_alive() {
        let unsure = if p.owner == OwnerState::Unsure {
            " (its start time cannot be confirmed, so it is held as running)"
        } else {
            ""
        };
        return Decision::new(
            Verdict::Busy,
            format!("{} still runs{unsure} and nothing handed the record off: another parent is spending this budget; stop, do not open a lane", p.record.owner),
            Write::Nothing,
        );
    }
    if let Some(spent) = spent(p, now) {
        return Decision::new(
            Verdict::Began,
            format!(
                "expired: the record left by {} had spent its bound ({spent}) and nothing handed it off; it is replaced and a new run of {:?} begins",
                p.record.owner,
                requested.as_str()
            ),
            Write::Save(Box::new(CarryRecord::begin(requested, caller.clone(), now))),
        );
    }
    Decision::new(
        Verdict::Standing,
        format!(
            "a record of this invocation stands that nothing handed off, and its owner {} is gone ({}): stop; a person decides — `majordomus carry resume {:?} --owner \"$PPID\"` carries that budget on, `majordomus carry end` discards it",
            p.record.owner,
            totals(&p.record),
            requested.as_str()
        ),
        Write::Nothing,
    )
}

/// `carry resume INVOCATION --owner PID`.
pub fn resume(found: &Found, requested: &Invocation, caller: &Owner, now: DateTime<Utc>) -> Result<Decision, Refusal> {
    let p = match found {
        Found::Absent => return Err(Refusal::NothingToResume),
        Found::Unreadable(reason) => return Ok(unreadable(reason)),
        Found::Present(p) => p,
    };
    if p.record.invocation != requested.as_str() {
        return Ok(mismatch(p, requested));
    }
    if let Some(spent) = spent(p, now) {
        return Ok(Decision::new(
            Verdict::Expired,
            format!("the run's whole-run bound is spent ({spent}): nothing is adopted; `majordomus carry end` clears the record"),
            Write::Nothing,
        ));
    }
    let own = p.record.handed_off || same_process(&p.record.owner, caller);
    if !own && p.owner.held_alive() {
        return Ok(Decision::new(
            Verdict::Busy,
            format!(
                "{} still runs and nothing handed the record off: adopting it would put two parents on one budget",
                p.record.owner
            ),
            Write::Nothing,
        ));
    }
    Ok(Decision::new(
        Verdict::Resumed,
        format!("{caller} adopts the run begun {}: {}", since(p.record.started_at), totals(&p.record)),
        Write::Save(adopted(p, caller)),
    ))
}

/// The record a count or a cut may write to: present, not cut, the caller's.
fn owned<'a>(found: &'a Found, caller: &Owner) -> Result<Result<&'a Present, Decision>, Refusal> {
    let p = match found {
        Found::Absent => return Err(Refusal::NoRecord),
        Found::Unreadable(reason) => return Ok(Err(unreadable(reason))),
        Found::Present(p) => p,
    };
    if p.record.handed_off {
        return Err(Refusal::AfterCut);
    }
    if !same_process(&p.record.owner, caller) {
        return Err(Refusal::NotOwner { recorded: p.record.owner.clone(), caller: caller.clone() });
    }
    Ok(Ok(p))
}

/// `carry count --merged N --filed N --owner PID`: increments only.
pub fn count(found: &Found, caller: &Owner, merged: u64, filed: u64) -> Result<Decision, Refusal> {
    let p = match owned(found, caller)? {
        Ok(p) => p,
        Err(decision) => return Ok(decision),
    };
    let mut record = p.record.clone();
    record.merged = record.merged.saturating_add(merged);
    record.filed = record.filed.saturating_add(filed);
    let explanation = format!("{} merged, {} filed in all", record.merged, record.filed);
    Ok(Decision::new(Verdict::Counted, explanation, Write::Save(Box::new(record))))
}

/// `carry cut --owner PID`: the session's last write; the next `begin`
/// of the same invocation answers `resumed`, exactly once.
pub fn cut(found: &Found, caller: &Owner) -> Result<Decision, Refusal> {
    let p = match owned(found, caller)? {
        Ok(p) => p,
        Err(decision) => return Ok(decision),
    };
    let mut record = p.record.clone();
    record.handed_off = true;
    record.cuts = record.cuts.saturating_add(1);
    let explanation = format!(
        "the record is handed off ({}); the next `majordomus carry begin {:?}` resumes it",
        totals(&record),
        record.invocation
    );
    Ok(Decision::new(Verdict::Cut, explanation, Write::Save(Box::new(record))))
}

/// `carry end`: removes whatever is there, readable or not.
pub fn end(found: &Found, stopped: Option<&str>) -> Decision {
    let why = match stopped {
        Some(reason) => format!("the run stopped: {reason}"),
        None => "the run is over".to_string(),
    };
    match found {
        Found::Absent => {
            Decision::new(Verdict::Absent, "there is no carry record here: nothing to end", Write::Nothing)
        }
        Found::Unreadable(reason) => {
            Decision::new(Verdict::Ended, format!("{why}; the unreadable record ({reason}) is removed"), Write::Remove)
        }
        Found::Present(p) => Decision::new(
            Verdict::Ended,
            format!("{why}; the record of {:?} is removed ({})", p.record.invocation, totals(&p.record)),
            Write::Remove,
        ),
    }
}

/// `carry budget`: `go` or `stop`, from the record alone.
pub fn budget(found: &Found, now: DateTime<Utc>) -> (Decision, Option<BudgetReading>) {
    let p = match found {
        Found::Absent => {
            return (
                Decision::new(
                    Verdict::Stop,
                    "there is no carry record here, so nothing carries this run's budget: begin the run first",
                    Write::Nothing,
                ),
                None,
            )
        }
        Found::Unreadable(reason) => return (unreadable(reason), None),
        Found::Present(p) => p,
    };
    let reading = BudgetReading::read(&p.record, p.invocation.limits(), now);
    let decision = if reading.go() {
        Decision::new(Verdict::Go, reading.summary(), Write::Nothing)
    } else {
        let reached: Vec<String> = reading.reached.iter().map(ToString::to_string).collect();
        Decision::new(Verdict::Stop, format!("{} ({})", reached.join("; "), reading.summary()), Write::Nothing)
    };
    (decision, Some(reading))
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    const INV: &str = "backlogrun --max 3 --hours 8";

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-30T12:00:00Z").expect("date").with_timezone(&Utc)
    }

    fn inv(text: &str) -> Invocation {
        Invocation::parse(text).expect("canonical")
    }

    fn proc(pid: u32, start: u64) -> Owner {
        Owner { pid, start_time: Some(start), boot_id: Some("boot".into()) }
    }

    /// A record of `INV` owned by pid 100, begun an hour ago.
    fn present(owner: OwnerState, handed_off: bool) -> Found {
        let mut record = CarryRecord::begin(&inv(INV), proc(100, 1), now() - Duration::hours(1));
        record.handed_off = handed_off;
        record.merged = 1;
        Found::Present(Box::new(Present { record, invocation: inv(INV), owner }))
    }

    fn aged(found: Found, hours: i64) -> Found {
        match found {
            Found::Present(mut p) => {
                p.record.started_at = now() - Duration::hours(hours);
                Found::Present(p)
            }
            other => other,
        }
    }

    fn saved(d: &Decision) -> &CarryRecord {
        match &d.write {
            Write::Save(r) => r,
            other => panic!("expected a save, got {other:?}"),
        }
    }

    #[test]
    fn begin_with_nothing_carried_began_and_claims_the_record() {
        let d = begin(&Found::Absent, &inv(INV), &proc(200, 5), now());
        assert_eq!(d.verdict, Verdict::Began);
        let r = saved(&d);
        assert_eq!((r.owner.pid, r.merged, r.cuts, r.started_at), (200, 0, 0, now()));
    }

    #[test]
    fn begin_over_a_cut_record_resumed_even_while_the_cutter_still_runs() {
        let d = begin(&present(OwnerState::Running, true), &inv(INV), &proc(200, 5), now());
        assert_eq!(d.verdict, Verdict::Resumed, "{}", d.explanation);
        let r = saved(&d);
        assert_eq!(r.owner, proc(200, 5));
        assert!(!r.handed_off, "the hand-off is taken exactly once");
        assert_eq!(r.merged, 1, "the budget carries over");
        assert_eq!(r.started_at, now() - Duration::hours(1), "the run's clock is not restarted");
    }

    #[test]
    fn a_cut_is_handed_to_exactly_one_successor() {
        let first = begin(&present(OwnerState::Running, true), &inv(INV), &proc(200, 5), now());
        let after = Found::Present(Box::new(Present {
            record: saved(&first).clone(),
            invocation: inv(INV),
            owner: OwnerState::Running,
        }));
        assert_eq!(begin(&after, &inv(INV), &proc(300, 6), now()).verdict, Verdict::Busy);
    }

    #[test]
    fn begin_over_a_live_owner_not_handed_off_is_busy() {
        let d = begin(&present(OwnerState::Running, false), &inv(INV), &proc(200, 5), now());
        assert_eq!((d.verdict, d.write), (Verdict::Busy, Write::Nothing));
    }

    #[test]
    fn an_owner_whose_start_time_cannot_be_read_is_held_busy() {
        let d = begin(&present(OwnerState::Unsure, false), &inv(INV), &proc(200, 5), now());
        assert_eq!(d.verdict, Verdict::Busy);
        assert!(d.explanation.contains("held as running"), "{}", d.explanation);
    }

    #[test]
    fn the_owner_beginning_again_resumes_its_own_run() {
        let d = begin(&present(OwnerState::Running, false), &inv(INV), &proc(100, 1), now());
        assert_eq!(d.verdict, Verdict::Resumed);
    }

    #[test]
    fn a_reused_pid_is_not_the_owner_beginning_again() {
        // pid 100 runs, but it is a later process than the one recorded.
        let d = begin(&present(OwnerState::Gone, false), &inv(INV), &proc(100, 77), now());
        assert_eq!(d.verdict, Verdict::Standing);
    }

    #[test]
    fn begin_over_a_dead_owner_is_standing_and_names_both_ways_out() {
        let d = begin(&present(OwnerState::Gone, false), &inv(INV), &proc(200, 5), now());
        assert_eq!((d.verdict, &d.write), (Verdict::Standing, &Write::Nothing));
        assert!(
            d.explanation.contains("majordomus carry resume \"backlogrun --max 3 --hours 8\" --owner \"$PPID\""),
            "{}",
            d.explanation
        );
        assert!(d.explanation.contains("majordomus carry end"), "{}", d.explanation);
    }

    #[test]
    fn begin_of_another_invocation_is_a_mismatch_whoever_owns_the_record() {
        for (owner, cut) in [(OwnerState::Running, false), (OwnerState::Gone, false), (OwnerState::Running, true)] {
            let d = begin(&present(owner, cut), &inv("backlogrun --max 4"), &proc(200, 5), now());
            assert_eq!((d.verdict, &d.write), (Verdict::Mismatch, &Write::Nothing));
        }
    }

    #[test]
    fn begin_over_a_cut_record_past_its_bound_is_expired_and_writes_nothing() {
        let d = begin(&aged(present(OwnerState::Gone, true), 9), &inv(INV), &proc(200, 5), now());
        assert_eq!((d.verdict, d.write), (Verdict::Expired, Write::Nothing));
    }

    #[test]
    fn begin_over_a_spent_record_nobody_handed_off_replaces_it_and_says_expired() {
        let d = begin(&aged(present(OwnerState::Gone, false), 9), &inv(INV), &proc(200, 5), now());
        assert_eq!(d.verdict, Verdict::Began);
        assert!(d.explanation.starts_with("expired:"), "{}", d.explanation);
        let r = saved(&d);
        assert_eq!((r.merged, r.started_at), (0, now()));
    }

    #[test]
    fn begin_over_an_unreadable_record_is_unreadable_and_writes_nothing() {
        let d = begin(&Found::Unreadable("not JSON".into()), &inv(INV), &proc(200, 5), now());
        assert_eq!((d.verdict, d.write), (Verdict::Unreadable, Write::Nothing));
    }

    #[test]
    fn resume_adopts_a_standing_record_with_its_budget() {
        let d = resume(&present(OwnerState::Gone, false), &inv(INV), &proc(200, 5), now()).expect("decided");
        assert_eq!(d.verdict, Verdict::Resumed);
        assert_eq!((saved(&d).owner.pid, saved(&d).merged), (200, 1));
    }

    #[test]
    fn resume_over_a_spent_record_is_expired_and_adopts_nothing() {
        let d = resume(&aged(present(OwnerState::Gone, false), 8), &inv(INV), &proc(200, 5), now()).expect("decided");
        assert_eq!((d.verdict, d.write), (Verdict::Expired, Write::Nothing));
    }

    #[test]
    fn resume_over_a_live_owner_is_busy() {
        let d = resume(&present(OwnerState::Running, false), &inv(INV), &proc(200, 5), now()).expect("decided");
        assert_eq!(d.verdict, Verdict::Busy);
    }

    #[test]
    fn resume_with_nothing_here_is_refused() {
        assert_eq!(resume(&Found::Absent, &inv(INV), &proc(200, 5), now()), Err(Refusal::NothingToResume));
    }

    #[test]
    fn resume_of_another_invocation_is_a_mismatch() {
        let d = resume(&present(OwnerState::Gone, false), &inv("other"), &proc(200, 5), now()).expect("decided");
        assert_eq!(d.verdict, Verdict::Mismatch);
    }

    #[test]
    fn a_count_adds_to_the_records_sum() {
        let d = count(&present(OwnerState::Running, false), &proc(100, 1), 2, 1).expect("counted");
        assert_eq!(d.verdict, Verdict::Counted);
        assert_eq!((saved(&d).merged, saved(&d).filed), (3, 1));
    }

    #[test]
    fn a_count_from_a_process_that_is_not_the_owner_is_refused() {
        let refused = count(&present(OwnerState::Running, false), &proc(200, 5), 1, 0);
        assert!(matches!(refused, Err(Refusal::NotOwner { .. })), "{refused:?}");
        let reused = count(&present(OwnerState::Gone, false), &proc(100, 77), 1, 0);
        assert!(matches!(reused, Err(Refusal::NotOwner { .. })), "same pid, another start time: {reused:?}");
    }

    #[test]
    fn a_count_after_a_cut_is_refused_even_from_the_cutter() {
        assert_eq!(count(&present(OwnerState::Running, true), &proc(100, 1), 1, 0), Err(Refusal::AfterCut));
        assert_eq!(cut(&present(OwnerState::Running, true), &proc(100, 1)), Err(Refusal::AfterCut));
    }

    #[test]
    fn a_count_or_cut_with_no_record_is_refused() {
        assert_eq!(count(&Found::Absent, &proc(100, 1), 1, 0), Err(Refusal::NoRecord));
        assert_eq!(cut(&Found::Absent, &proc(100, 1)), Err(Refusal::NoRecord));
    }

    #[test]
    fn a_cut_hands_the_record_off_and_counts_itself() {
        let d = cut(&present(OwnerState::Running, false), &proc(100, 1)).expect("cut");
        assert_eq!(d.verdict, Verdict::Cut);
        assert!(saved(&d).handed_off);
        assert_eq!(saved(&d).cuts, 1);
    }

    #[test]
    fn end_removes_any_record_and_a_second_end_finds_nothing() {
        assert_eq!(end(&present(OwnerState::Running, false), None).write, Write::Remove);
        assert_eq!(end(&Found::Unreadable("x".into()), None).write, Write::Remove);
        let again = end(&Found::Absent, Some("the maximum"));
        assert_eq!((again.verdict, again.write), (Verdict::Absent, Write::Nothing));
        assert!(end(&present(OwnerState::Gone, false), Some("parked backlog"))
            .explanation
            .contains("stopped: parked backlog"));
    }

    #[test]
    fn budget_goes_inside_the_bounds_and_stops_with_every_reason_outside_them() {
        let (go, reading) = budget(&present(OwnerState::Running, false), now());
        assert_eq!(go.verdict, Verdict::Go, "{}", go.explanation);
        assert!(reading.is_some());
        let (stop, _) = budget(&aged(present(OwnerState::Running, false), 8), now());
        assert_eq!(stop.verdict, Verdict::Stop);
        assert!(stop.explanation.contains("8h whole-run bound"), "{}", stop.explanation);
    }

    #[test]
    fn budget_with_no_record_stops_and_with_an_unreadable_one_is_unreadable() {
        assert_eq!(budget(&Found::Absent, now()).0.verdict, Verdict::Stop);
        assert_eq!(budget(&Found::Unreadable("x".into()), now()).0.verdict, Verdict::Unreadable);
    }
}
