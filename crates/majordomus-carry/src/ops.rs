//! Each `carry` request end to end: validate, lock, read, judge, decide,
//! write — in that order, so a refused request changes nothing and no write
//! happens outside the lock.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::budget::BudgetReading;
use crate::decide::{self, Decision, Found, Present, Refusal, Write};
use crate::invocation::{Invocation, InvocationError};
use crate::owner::{self, NotRunning, Probe};
use crate::store::{Loaded, Locked, Store, StoreError, LOCK_WAIT};

/// What stops a request before it has a verdict.
#[derive(Debug, thiserror::Error)]
pub enum CarryError {
    /// The invocation is not canonical or not usable: refused input.
    #[error(transparent)]
    Invocation(#[from] InvocationError),
    /// `--owner` names no running process: refused input.
    #[error(transparent)]
    NotRunning(#[from] NotRunning),
    /// The request cannot be honoured by this record: refused input.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The record could not be locked or written.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl CarryError {
    /// Whether the request was refused as given (nothing was changed), as
    /// opposed to failing inside.
    pub fn is_refusal(&self) -> bool {
        match self {
            CarryError::Store(e) => e.is_refusal(),
            _ => true,
        }
    }
}

/// The record's store and the process probe a request is answered with.
#[derive(Clone, Copy)]
pub struct Carry<'a> {
    store: &'a Store,
    probe: &'a dyn Probe,
    lock_wait: Duration,
}

impl std::fmt::Debug for Carry<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Carry").field("store", &self.store).finish_non_exhaustive()
    }
}

impl<'a> Carry<'a> {
    pub fn new(store: &'a Store, probe: &'a dyn Probe) -> Self {
        Self { store, probe, lock_wait: LOCK_WAIT }
    }

    /// What the record holds now, its owner judged. Takes no lock.
    pub fn found(&self) -> Found {
        self.judge(self.store.read())
    }

    fn judge(&self, loaded: Loaded) -> Found {
        match loaded {
            Loaded::Absent => Found::Absent,
            Loaded::Unreadable(reason) => Found::Unreadable(reason),
            Loaded::Present(found) => {
                let (record, invocation) = *found;
                let owner = owner::judge(&record.owner, &self.probe.process(record.owner.pid));
                Found::Present(Box::new(Present { record, invocation, owner }))
            }
        }
    }

    fn apply(&self, locked: &Locked<'_>, decision: Decision) -> Result<Decision, CarryError> {
        match &decision.write {
            Write::Nothing => {}
            Write::Save(record) => locked.save(record)?,
            Write::Remove => locked.remove()?,
        }
        Ok(decision)
    }

    pub fn begin(&self, invocation: &str, owner_pid: u32, now: DateTime<Utc>) -> Result<Decision, CarryError> {
        let invocation = Invocation::parse(invocation)?;
        let caller = owner::identify(self.probe, owner_pid)?;
        let locked = self.store.lock(self.lock_wait)?;
        let found = self.judge(locked.read());
        if matches!(found, Found::Absent) {
            // `carry end` then `carry begin` from the same process is the
            // same run: it takes up what it had spent (test/cases/584).
            match locked.ended_by(&caller, &invocation) {
                Ok(Some(ended)) => return self.apply(&locked, decide::begin_again(ended, invocation, &caller, now)),
                Ok(None) => {}
                Err(reason) => return self.apply(&locked, decide::history_unreadable(&reason)),
            }
        }
        self.apply(&locked, decide::begin(&found, &invocation, &caller, now))
    }

    pub fn resume(&self, invocation: &str, owner_pid: u32, now: DateTime<Utc>) -> Result<Decision, CarryError> {
        let invocation = Invocation::parse(invocation)?;
        let caller = owner::identify(self.probe, owner_pid)?;
        let locked = self.store.lock(self.lock_wait)?;
        let found = self.judge(locked.read());
        self.apply(&locked, decide::resume(&found, &invocation, &caller, now)?)
    }

    pub fn count(&self, owner_pid: u32, merged: u64, filed: u64) -> Result<Decision, CarryError> {
        let caller = owner::identify(self.probe, owner_pid)?;
        let locked = self.store.lock(self.lock_wait)?;
        let found = self.judge(locked.read());
        self.apply(&locked, decide::count(&found, &caller, merged, filed)?)
    }

    pub fn cut(&self, owner_pid: u32) -> Result<Decision, CarryError> {
        let caller = owner::identify(self.probe, owner_pid)?;
        let locked = self.store.lock(self.lock_wait)?;
        let found = self.judge(locked.read());
        self.apply(&locked, decide::cut(&found, &caller)?)
    }

    /// Removes the record, leaving one line in the history saying what it
    /// had spent and why the run stopped.
    pub fn end(&self, stopped: Option<&str>, now: DateTime<Utc>) -> Result<Decision, CarryError> {
        let locked = self.store.lock(self.lock_wait)?;
        let loaded = locked.read();
        locked.append_history(&loaded, stopped, now)?;
        let found = self.judge(loaded);
        self.apply(&locked, decide::end(&found, stopped))
    }

    /// `go` or `stop` from the record alone. Takes no lock.
    pub fn budget(&self, now: DateTime<Utc>) -> (Decision, Option<BudgetReading>) {
        decide::budget(&self.found(), now)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use chrono::Duration as Span;

    use super::*;
    use crate::owner::Process;
    use crate::verdict::Verdict;

    /// Processes made up for the test: pid → start time; absent means gone.
    #[derive(Default)]
    struct Fake(Mutex<HashMap<u32, u64>>);

    impl Fake {
        fn spawn(&self, pid: u32, start: u64) {
            self.0.lock().expect("lock").insert(pid, start);
        }
        fn kill(&self, pid: u32) {
            self.0.lock().expect("lock").remove(&pid);
        }
    }

    impl Probe for Fake {
        fn process(&self, pid: u32) -> Process {
            match self.0.lock().expect("lock").get(&pid) {
                Some(start) => Process::Running { start_time: Some(*start), boot_id: None },
                None => Process::Gone,
            }
        }
    }

    fn t0() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-30T08:00:00Z").expect("date").with_timezone(&Utc)
    }

    const INV: &str = "backlogrun --max 3";

    #[test]
    fn two_begins_at_once_give_one_began_and_one_busy_never_two_owners() {
        for _ in 0..20 {
            let dir = tempfile::tempdir().expect("tempdir");
            let store = Store::in_common_dir(dir.path());
            let probe = Fake::default();
            probe.spawn(10, 1);
            probe.spawn(20, 2);
            let verdicts: Vec<Verdict> = std::thread::scope(|s| {
                let a = s.spawn(|| Carry::new(&store, &probe).begin(INV, 10, t0()).expect("begin").verdict);
                let b = s.spawn(|| Carry::new(&store, &probe).begin(INV, 20, t0()).expect("begin").verdict);
                vec![a.join().expect("a"), b.join().expect("b")]
            });
            let mut sorted = verdicts.clone();
            sorted.sort_by_key(|v| v.word());
            assert_eq!(sorted, [Verdict::Began, Verdict::Busy], "{verdicts:?}");
        }
    }

    #[test]
    fn a_run_carries_its_budget_across_a_cut_and_a_crash() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::in_common_dir(dir.path());
        let probe = Fake::default();
        let carry = Carry::new(&store, &probe);

        // Session one: begins, merges one, files one, cuts — and keeps running.
        probe.spawn(10, 1);
        assert_eq!(carry.begin(INV, 10, t0()).expect("begin").verdict, Verdict::Began);
        carry.count(10, 1, 1).expect("count");
        assert_eq!(carry.cut(10).expect("cut").verdict, Verdict::Cut);
        assert!(matches!(carry.count(10, 1, 0), Err(CarryError::Refused(Refusal::AfterCut))));

        // Session two takes the hand-off; the budget is the run's.
        probe.spawn(20, 2);
        assert_eq!(carry.begin(INV, 20, t0() + Span::hours(2)).expect("begin").verdict, Verdict::Resumed);
        carry.count(20, 1, 0).expect("count");
        // The first session can no longer count, and a third is busy.
        assert!(matches!(carry.count(10, 1, 0), Err(CarryError::Refused(Refusal::NotOwner { .. }))));
        probe.spawn(30, 3);
        assert_eq!(carry.begin(INV, 30, t0() + Span::hours(2)).expect("begin").verdict, Verdict::Busy);

        // Session two crashes; its pid is reused by an unrelated process.
        probe.kill(20);
        probe.spawn(20, 99);
        assert_eq!(carry.begin(INV, 30, t0() + Span::hours(3)).expect("begin").verdict, Verdict::Standing);
        assert_eq!(carry.resume(INV, 30, t0() + Span::hours(3)).expect("resume").verdict, Verdict::Resumed);
        carry.count(30, 1, 0).expect("count");

        let (verdict, reading) = carry.budget(t0() + Span::hours(4));
        assert_eq!(verdict.verdict, Verdict::Stop, "{}", verdict.explanation);
        let reading = reading.expect("reading");
        assert_eq!((reading.merged, reading.filed, reading.cuts, reading.elapsed_seconds), (3, 1, 1, 4 * 3600));

        assert_eq!(carry.end(Some("the maximum"), t0()).expect("end").verdict, Verdict::Ended);
        assert_eq!(carry.end(None, t0()).expect("end").verdict, Verdict::Absent);
        let history = std::fs::read_to_string(store.history_path()).expect("history");
        assert_eq!(history.lines().count(), 1, "a second end writes nothing: {history}");
        assert!(history.contains("\"stopped\":\"the maximum\""), "{history}");
    }

    #[test]
    fn a_run_its_owner_ended_and_began_again_keeps_what_it_spent() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::in_common_dir(dir.path());
        let probe = Fake::default();
        probe.spawn(10, 1);
        let carry = Carry::new(&store, &probe);
        assert_eq!(carry.begin("backlogrun --max 1", 10, t0()).expect("begin").verdict, Verdict::Began);
        carry.count(10, 1, 0).expect("count");
        assert_eq!(carry.end(None, t0()).expect("end").verdict, Verdict::Ended);
        // Another invocation from the same process is another run.
        assert_eq!(carry.begin(INV, 10, t0()).expect("begin").verdict, Verdict::Began);
        assert_eq!(carry.end(None, t0()).expect("end").verdict, Verdict::Ended);
        let again = carry.begin("backlogrun --max 1", 10, t0() + Span::hours(1)).expect("begin");
        assert_eq!(again.verdict, Verdict::Resumed, "{}", again.explanation);
        let (verdict, reading) = carry.budget(t0() + Span::hours(1));
        assert_eq!(verdict.verdict, Verdict::Stop, "{}", verdict.explanation);
        assert_eq!(reading.expect("reading").elapsed_seconds, 3600, "the run's clock is taken up too");
        // Spent, ended, begun again: expired, nothing written.
        carry.end(None, t0()).expect("end");
        let late = carry.begin("backlogrun --max 1", 10, t0() + Span::hours(9)).expect("begin");
        assert_eq!(late.verdict, Verdict::Expired, "{}", late.explanation);
        assert!(matches!(store.read(), Loaded::Absent));
        // Another process begins a new run.
        probe.spawn(20, 2);
        assert_eq!(carry.begin("backlogrun --max 1", 20, t0()).expect("begin").verdict, Verdict::Began);
    }

    #[test]
    fn a_refused_request_changes_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::in_common_dir(dir.path());
        let probe = Fake::default();
        probe.spawn(10, 1);
        let carry = Carry::new(&store, &probe);
        assert!(matches!(carry.begin("backlogrun --max 03", 10, t0()), Err(CarryError::Invocation(_))));
        assert!(matches!(carry.begin(INV, 11, t0()), Err(CarryError::NotRunning(_))));
        assert!(matches!(store.read(), Loaded::Absent));
        carry.begin(INV, 10, t0()).expect("begin");
        let before = std::fs::read(store.record_path()).expect("record");
        probe.spawn(20, 2);
        assert!(carry.count(20, 1, 0).expect_err("not the owner").is_refusal());
        assert_eq!(std::fs::read(store.record_path()).expect("record"), before);
    }
}
