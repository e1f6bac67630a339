//! The stop hook's own clock: an answer before the host's timeout, even
//! when a reading never returns.
//!
//! The measurement keeps to its time budget by asking the clock between
//! readings (`majordomus_invariant::Deadline`), but a reading blocked in
//! the kernel asks nothing: opening a FIFO planted where git or majordomus
//! reads a file (`mkfifo .git/packed-refs`) waits for a writer forever.
//! Past its timeout the host kills the hook, and a killed hook neither
//! blocks nor says why: the stop goes through. So the hook watches itself:
//! a thread waits out the budget and a grace ([`GRACE_MS`], well inside
//! the margin `hook install` leaves before the host's timeout), and if no
//! answer was given by then it gives one and ends the process. The work
//! is not known to be done, so the stop is blocked, saying why and what
//! shows the reading that hung; a stop that came of a block
//! (`stop_hook_active`) goes through with the same words, so a hang
//! nobody can clear costs one block, not every turn.
//!
//! The budget is the policy's, but the host's timeout is whatever `hook
//! install` gave it then: a budget restored or raised since could outlast
//! it. So where the command names the host's timeout (`--host-timeout`,
//! written by `hook install`), the budget is held to that timeout less the
//! install's margin, and the watch answers within it whatever the policy
//! says (test/cases/529); a command installed without it keeps the budget.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::protocol::{emit, render_stop, Verdict};
use super::Agent;

/// How long past the time budget the watch waits before answering itself:
/// under `hook install`'s margin (`install::TIMEOUT_MARGIN_SECONDS`).
pub const GRACE_MS: u64 = 3000;

/// The budget the watch allows, in milliseconds from the start: a
/// provisional one until the policy in force is read, then its budget
/// ([`allow`]).
static ALLOWED_MS: AtomicU64 = AtomicU64::new(0);
/// Whether a policy in force gave the watch its budget: the first one
/// replaces the provisional budget, later ones (another task's) can only
/// raise it.
static SETTLED: AtomicBool = AtomicBool::new(false);
/// The host's timeout in milliseconds, as the command names it; none
/// named: unbounded.
static HOST_MS: AtomicU64 = AtomicU64::new(u64::MAX);
/// Whether an answer was given: the first to claim it answers.
static ANSWERED: AtomicBool = AtomicBool::new(false);
/// Held while an answer is written: the watch keeps it until the process
/// ends, so the hook's own answer never follows the watch's.
static WRITING: Mutex<()> = Mutex::new(());

/// Starts the watch over a stop whose answer is due `budget_ms` after
/// `started` (plus [`GRACE_MS`]), within the host's timeout where the
/// command names it (`host_timeout`, seconds); `stop_hook_active` as the
/// payload says.
pub fn start(agent: Agent, started: Instant, budget_ms: u64, host_timeout: Option<u64>, stop_hook_active: bool) {
    HOST_MS.store(host_timeout.map_or(u64::MAX, |s| s.saturating_mul(1000)), Ordering::SeqCst);
    ALLOWED_MS.store(within_host(budget_ms, HOST_MS.load(Ordering::SeqCst)), Ordering::SeqCst);
    let watch = move || loop {
        let allowed = due_ms(ALLOWED_MS.load(Ordering::SeqCst), HOST_MS.load(Ordering::SeqCst));
        let waited = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        if waited >= allowed {
            let _writing = WRITING.lock();
            if claim() {
                emit(&render_stop(agent, &verdict(allowed, stop_hook_active)));
                std::process::exit(0);
            }
            return;
        }
        std::thread::sleep(Duration::from_millis((allowed - waited).min(200)));
    };
    // Without a thread there is no watch; the answer comes as before.
    let _ = std::thread::Builder::new().name("majordomus-watch".into()).spawn(watch);
}

/// The watch allows `budget_ms`, the budget of the policy in force: in
/// place of the provisional one the watch started with (the default, read
/// before any policy), so that a budget lowered below it, with the host's
/// timeout sized to the lower one by `hook install`, is answered within
/// that timeout (test/cases/516); for a second task, the higher of theirs.
/// Either is held within the host's timeout ([`within_host`]), and the
/// budget the measurement is to keep to is returned.
pub fn allow(budget_ms: u64) -> u64 {
    let budget_ms = within_host(budget_ms, HOST_MS.load(Ordering::SeqCst));
    if SETTLED.swap(true, Ordering::SeqCst) {
        ALLOWED_MS.fetch_max(budget_ms, Ordering::SeqCst);
    } else {
        ALLOWED_MS.store(budget_ms, Ordering::SeqCst);
    }
    budget_ms
}

/// The margin `hook install` leaves between the budget and the host's
/// timeout, in milliseconds.
const MARGIN_MS: u64 = super::install::TIMEOUT_MARGIN_SECONDS * 1000;

/// A budget held within a host's timeout of `host_ms`: at most that
/// timeout less the install's margin, as `hook install` would have sized
/// it (a budget it accepted is unchanged).
pub fn within_host(budget_ms: u64, host_ms: u64) -> u64 {
    budget_ms.min(host_ms.saturating_sub(MARGIN_MS))
}

/// When the watch answers, in milliseconds from the start: the budget
/// allowed and the grace, and never later than the margin less the grace
/// before the host's timeout, even where that leaves no budget at all.
pub fn due_ms(allowed_ms: u64, host_ms: u64) -> u64 {
    allowed_ms.saturating_add(GRACE_MS).min(host_ms.saturating_sub(MARGIN_MS - GRACE_MS))
}

/// Writes the hook's own answer, unless the watch gave one (it then ends
/// the process while this waits).
pub fn answer(agent: Agent, verdict: &Verdict) {
    let _writing = WRITING.lock();
    if claim() {
        emit(&render_stop(agent, verdict));
    }
}

fn claim() -> bool {
    !ANSWERED.swap(true, Ordering::SeqCst)
}

/// What the watch answers after `allowed_ms` with no answer.
pub fn verdict(allowed_ms: u64, stop_hook_active: bool) -> Verdict {
    let said = format!(
        "it could not answer within {allowed_ms} ms: a reading never returned (a file it reads may be a FIFO, or \
         on a file system that does not answer), so nothing about the task is known to be done. Put a regular \
         file back where one is read (`find . -type p` lists the FIFOs, `.git` included)"
    );
    if stop_hook_active {
        Verdict::say(format!("majordomus let this stop through: it came of a block, and {said}."))
    } else {
        Verdict::Block { reason: format!("majordomus blocked this stop: {said}; then stop again.") }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_with_no_answer_in_time_is_blocked_unless_it_came_of_a_block() {
        assert!(matches!(verdict(23_000, false), Verdict::Block { reason } if reason.contains("23000 ms")));
        assert!(matches!(verdict(23_000, true), Verdict::Allow { message: Some(m) } if m.contains("FIFO")));
    }

    #[test]
    fn the_budget_and_the_watch_keep_within_the_hosts_timeout_where_it_is_named() {
        assert_eq!(within_host(20_000, u64::MAX), 20_000, "no timeout named: the budget as it is");
        assert_eq!(within_host(20_000, 60_000), 20_000, "a timeout install accepted leaves the budget");
        assert_eq!(within_host(20_000, 7_000), 2_000);
        assert_eq!(within_host(20_000, 4_000), 0);
        assert_eq!(due_ms(20_000, u64::MAX), 23_000);
        assert_eq!(due_ms(2_000, 7_000), 5_000);
        assert_eq!(due_ms(0, 4_000), 2_000);
        assert_eq!(due_ms(0, 1_000), 0, "a timeout shorter than the margin is answered at once");
    }
}
