//! The verification family judged: `regression-tested` from the change
//! set and the test-path rule, `gates-green` from what the ledger recorded
//! of each selected gate over its inputs as they are now.
//!
//! A pass counts only under the environment the task started in
//! (`ledger::GATE_ENVIRONMENT`, which chose the programs the command ran):
//! a pass recorded under other values (`PATH=fake:$PATH majordomus gate
//! run`), or with none recorded, is named and owed; against a task record
//! that holds no start environment it is unknown. And the repository files
//! a gate's command names that changed since the start (its script, say)
//! are named beside its verdict: the task's edits to what judges it are for
//! review to weigh, so named, not judged.

use serde_json::json;

use majordomus_readings::changes::ChangeSet;
use majordomus_readings::inputs::{OffIndex, OffRecord};
use majordomus_readings::Unread;
use majordomus_records::ledger::{self, Environment};

use super::readings::{GateReading, GateRuns, GateSet, RecordedRun};
use majordomus_records::RepoPath;

use super::test_code::changed::TestCode;
use super::NotNew;
use crate::answer::Status;
use crate::judgement::{with, Judgement};
use crate::prose::{count, count_verb, names, shell_word, short};
use crate::readings::Readings;

pub(crate) fn regression_tested(r: &Readings) -> Judgement {
    let changes = match &r.changes {
        Ok(c) => c,
        Err(e) => return Judgement::unread(e),
    };
    if changes.changed.is_empty() {
        if !changes.arrived.is_empty() {
            return Judgement::new(
                Status::Exempt,
                format!(
                    "The task changed nothing since the start, so there is nothing to test ({} changed only by commits a fetch brought, which are not the task's: {}).",
                    count(changes.arrived.len(), "path"),
                    names(&changes.arrived)
                ),
                json!({ "changed": 0, "arrived": changes.arrived }),
            );
        }
        return Judgement::new(
            Status::Exempt,
            "Nothing changed since the start, so there is nothing to test.",
            json!({ "changed": 0 }),
        );
    }
    let touched: Vec<&RepoPath> = changes.changed.iter().filter(|p| r.verification.test_rules.is_test(p)).collect();
    // A deleted test catches nothing: a test path the working tree no
    // longer holds is named, not counted.
    let gone = match (&r.verification.gone, touched.is_empty()) {
        (_, true) => Vec::new(),
        (Ok(g), false) => g.iter().collect(),
        (Err(e), false) => return Judgement::unread(e),
    };
    let (deleted, tests): (Vec<&RepoPath>, Vec<&RepoPath>) = touched.into_iter().partition(|p| gone.contains(p));
    // A test path holding what a test path held at the start (moved, or
    // only its mode changed), or no line of test it did not hold then but
    // those the change took out elsewhere, adds or edits no test
    // (test/cases/350, 405, 524).
    let not_new = match (&r.verification.not_new, tests.is_empty()) {
        (_, true) => Default::default(),
        (Ok(n), false) => n.clone(),
        (Err(e), false) => return Judgement::unread(e),
    };
    let (same, tests): (Vec<&RepoPath>, Vec<&RepoPath>) = tests.into_iter().partition(|p| not_new.contains_key(*p));
    // A path the task acknowledged as a peer's is no test of its own
    // (test/cases/569).
    let peers = acked_as_peers(r);
    let (peer_tests, tests): (Vec<&RepoPath>, Vec<&RepoPath>) =
        tests.into_iter().partition(|p| peers.contains(p.to_string().as_str()));
    let mut not_counted = match deleted.len() {
        0 => String::new(),
        n => format!(" ({} deleted, and a deleted test does not count: {})", count(n, "test path"), names(&deleted)),
    };
    not_counted.push_str(&peers_clause(&peer_tests.iter().map(ToString::to_string).collect::<Vec<_>>()));
    if !same.is_empty() {
        // Where a fetch brought commits, a line the newest of them hold is
        // no line the task added (test/cases/519).
        let no_line = if changes.arrived_tips.is_empty() {
            "no line it did not hold then"
        } else {
            "no line that neither its content then nor a commit a fetch brought holds"
        };
        let held: Vec<String> = same
            .iter()
            .map(|p| match not_new.get(*p) {
                Some(NotNew::Holds(from)) if from != *p => format!("{p} (the content {from} held)"),
                Some(NotNew::Arrived) => format!("{p} (the content a commit a fetch brought holds, not the task's)"),
                Some(NotNew::NoLineAdded) => {
                    format!("{p} ({no_line}: empty, blank lines or indentation, lines taken out, or a test turned off)")
                }
                Some(NotNew::Moved) => {
                    format!("{p} (a test moved, not written: each line it did not hold then is one the change took out of it or of another path)")
                }
                Some(NotNew::Copies(from)) => {
                    format!("{p} (a copy of {from}, a file outside a test path: it writes no test, only that file's lines again)")
                }
                Some(NotNew::Link) => {
                    format!("{p} (a symbolic link leading outside the working tree, nowhere, or to no file: a link holds no test)")
                }
                Some(NotNew::LinkTo(target)) => {
                    format!("{p} (a symbolic link to {target}: a link writes no line of its own, and what it leads to counts at its own path, where that is a test path)")
                }
                Some(NotNew::NoFile) => {
                    format!("{p} (a directory, a submodule or a repository of its own: its files are that repository's, no test file written here)")
                }
                Some(NotNew::TurnedOff { line, words }) => {
                    format!("{p} (a test turned off: each line it did not hold then only turns one off or lies under one that does, as {p}:{line} `{words}` is read)")
                }
                _ => format!("{p} (its own content then)"),
            })
            .collect();
        not_counted.push_str(&format!(
            " ({} {} no test: what a test path held at the start or a fetch brought, moved, copied or with only its mode changed, no line of test added, or no file of its own: {})",
            count(same.len(), "test path"),
            if same.len() == 1 { "adds" } else { "add" },
            names(&held)
        ));
    }
    if !tests.is_empty() {
        let details = json!({ "changed": changes.changed.len(), "tests": tests, "deleted_tests": deleted, "not_new_tests": same, "acknowledged_tests": peer_tests });
        return Judgement::new(
            Status::Pass,
            format!("The change touches {}: {}{not_counted}.", count(tests.len(), "test path"), names(&tests)),
            details,
        );
    }
    // No test path: test code inside the other changed files (test_code/).
    let code = match &r.verification.test_code {
        Ok(Some(code)) => code,
        Ok(None) => &TestCode::default(),
        Err(e) => return Judgement::unread(e),
    };
    let (peer_items, own_items): (Vec<_>, Vec<_>) =
        code.touched.iter().partition(|(path, _)| peers.contains(path.as_str()));
    not_counted.push_str(&peers_clause(&peer_items.iter().map(|(path, _)| path.clone()).collect::<Vec<_>>()));
    let items: Vec<String> = own_items.iter().map(|(path, labels)| format!("{path} ({})", labels.join(", "))).collect();
    let not_read: Vec<String> = code.not_read.iter().map(|(path, why)| format!("{path}: {why}")).collect();
    let details = json!({
        "changed": changes.changed.len(),
        "tests": [],
        "deleted_tests": deleted,
        "not_new_tests": same,
        "acknowledged_tests": peer_tests.iter().map(ToString::to_string).chain(peer_items.iter().map(|(path, _)| path.clone())).collect::<Vec<_>>(),
        "test_code": own_items.iter().map(|(path, labels)| json!({ "path": path, "items": labels })).collect::<Vec<_>>(),
        "test_code_not_read": code.not_read.iter().map(|(path, why)| json!({ "path": path, "why": why })).collect::<Vec<_>>(),
        "test_code_turned_off": code.turned_off.iter().map(|(path, line, words)| json!({ "path": path, "line": line, "words": words })).collect::<Vec<_>>(),
        "test_code_moved": code.moved.iter().map(|(path, lines)| json!({ "path": path, "lines": lines })).collect::<Vec<_>>(),
    });
    // The lines read as only turning a test off are named, so a worker
    // whose test was read so can tell which line and why (test/cases/489).
    let off: Vec<String> =
        code.turned_off.iter().map(|(path, line, words)| format!("{path}:{line} `{words}`")).collect();
    let off_clause = match off.len() {
        0 => String::new(),
        n => format!(
            "; {} read as only turning a test off, which adds none, nor does a test under it: {}",
            count_verb(n, "line was", "lines were"),
            off.join("; ")
        ),
    };
    // Lines of test items moved from elsewhere are named by their files,
    // so a worker who carried a test across can tell why it added none
    // (test/cases/525).
    let moved: Vec<String> = code.moved.iter().map(|(path, n)| format!("{path} ({})", count(*n, "line"))).collect();
    let moved_clause = match moved.len() {
        0 => String::new(),
        _ => format!(
            "; lines added inside test items that the change took out of a path it deleted or modified are a test moved, not written: {}",
            moved.join(", ")
        ),
    };
    let not_read_clause = match not_read.len() {
        0 => String::new(),
        n => format!("; {} not read for test code ({})", count_verb(n, "file was", "files were"), not_read.join("; ")),
    };
    if !items.is_empty() {
        return Judgement::new(
            Status::Pass,
            format!(
                "The change adds or edits test code in {}: {}{not_counted}.",
                count(items.len(), "file"),
                names(&items)
            ),
            details,
        );
    }
    Judgement::new(
        Status::Owed,
        format!(
            "None of the {} changed since the start is a test path{} or holds an added or edited test item \
             (majordomus explain regression-tested lists what counts here){not_counted}{off_clause}{moved_clause}{not_read_clause}.",
            count(changes.changed.len(), "path"),
            match (deleted.is_empty(), same.is_empty(), peer_tests.is_empty()) {
                (true, true, true) => "",
                (_, _, false) => " of the task's own",
                (false, _, _) => " still there",
                (true, false, _) => " with content of its own",
            }
        ),
        details,
    )
}

/// The paths the task acknowledged as not its work (`majordomus ack
/// committed` or `ack no-untracked`, a peer's edit or file) that its own
/// history does not show it made: a test there is the peer's, not the
/// task's, and no commit of the task holds it, so a clone has no such test
/// (test/cases/569). A path the task's commits changed is its own whatever
/// was acknowledged (`made.rs`). Where what the task made cannot be read,
/// every acknowledged path is taken as acknowledged: the worker's word is
/// that it is not the task's. Read only where the task acknowledged
/// something (the ledger is already folded, and `made` taken only then).
fn acked_as_peers(r: &Readings) -> std::collections::BTreeSet<String> {
    use crate::question::QuestionId;
    let Ok(book) = &r.bookkeeping.book else { return Default::default() };
    let made = match &r.bookkeeping.made {
        Some(Ok(made)) => Some(made),
        _ => None,
    };
    book.acks
        .iter()
        .filter(|a| a.question == QuestionId::Committed.as_str() || a.question == QuestionId::NoUntracked.as_str())
        .flat_map(|a| a.evidence.iter())
        .filter(|p| made.map_or(true, |m| m.owns(p).is_none()))
        .cloned()
        .collect()
}

/// The clause naming the tests not counted as acknowledged a peer's.
fn peers_clause(paths: &[String]) -> String {
    match paths.len() {
        0 => String::new(),
        n => format!(
            " ({} acknowledged as not this task's work (majordomus ack), so no test of it: {}; a test the task writes is committed, not acknowledged)",
            count(n, "path"),
            names(paths)
        ),
    }
}

/// What the ledger says of one gate over its inputs now.
#[derive(Debug, Clone, PartialEq)]
pub enum GateState<'a> {
    /// Its latest run over exactly the inputs now passed.
    Passing(&'a RecordedRun),
    /// Its latest run over exactly the inputs now failed or timed out.
    Failed(&'a RecordedRun),
    /// It never reported: never reported is not green.
    NeverReported,
    /// It ran, but its inputs changed since: the verdict covers other content.
    Stale { last: &'a RecordedRun, now: &'a str },
    /// Its latest run over exactly the inputs now passed, but not under the
    /// environment the task started in, or under one that cannot be told:
    /// not the gate's verdict.
    Elsewhere { run: &'a RecordedRun, why: Elsewhere<'a> },
    /// Its latest run over exactly the inputs now passed, but inputs the
    /// task changed lie outside the working tree it ran in (a sparse
    /// checkout's, or a submodule not checked out): the run never saw
    /// them, so it is not their verdict.
    Unseen { run: &'a RecordedRun, paths: &'a [String] },
    /// Its latest run over exactly the inputs now passed, but under
    /// `core.fileMode = false` an input's executable bit on disk is not the
    /// mode git records: the command ran over a mode the commit does not
    /// hold, so a checkout of it does not run the same (test/cases/471).
    OffRecord { run: &'a RecordedRun, files: &'a [OffRecord] },
    /// No run over the inputs as git records them, and inputs the task
    /// changed hold on disk other content than the blob git records,
    /// though git reads them clean (a clean filter given to one `git
    /// add`): a run here is over content the commit does not hold
    /// (test/cases/522).
    NotCommitted { last: Option<&'a RecordedRun>, files: &'a [OffIndex] },
    /// Its latest run over exactly the inputs now passed, but it read
    /// files the start commit tracked that the commit no longer holds,
    /// left on disk and ignored now: a checkout of the commit lacks them
    /// (test/cases/523).
    LeftOnDisk { run: &'a RecordedRun, paths: &'a [String] },
    /// Its inputs or the ledger could not be read.
    Unread(&'a Unread),
}

impl GateState<'_> {
    /// The word for the state in counts and details.
    pub fn label(&self) -> &'static str {
        match self {
            GateState::Passing(_) => "passing",
            GateState::Failed(_) => "failed",
            GateState::NeverReported => "never reported",
            GateState::Stale { .. } => "stale",
            GateState::Elsewhere { why: Elsewhere::StartUnrecorded, .. } => "environment unknown",
            GateState::Elsewhere { .. } => "other environment",
            GateState::Unseen { .. } => "outside the checkout",
            GateState::OffRecord { .. } => "mode not recorded",
            GateState::NotCommitted { .. } => "not the committed content",
            GateState::LeftOnDisk { .. } => "left on disk",
            GateState::Unread(_) => "unread",
        }
    }

    pub fn status(&self) -> Status {
        match self {
            GateState::Passing(_) => Status::Pass,
            GateState::Failed(_) => Status::Refused,
            GateState::NeverReported | GateState::Stale { .. } => Status::Owed,
            GateState::Elsewhere { why: Elsewhere::StartUnrecorded, .. } => Status::Unknown,
            GateState::Elsewhere { .. }
            | GateState::Unseen { .. }
            | GateState::OffRecord { .. }
            | GateState::NotCommitted { .. }
            | GateState::LeftOnDisk { .. } => Status::Owed,
            GateState::Unread(_) => Status::Unknown,
        }
    }
}

/// Why a passing run is not counted as the gate's verdict.
#[derive(Debug, Clone, PartialEq)]
pub enum Elsewhere<'a> {
    /// These variables held other values at the run than at the start.
    Differs(Vec<Difference<'a>>),
    /// The run's ledger line holds no environment (an older majordomus wrote it).
    RunUnrecorded,
    /// The task record holds no start environment (an older majordomus
    /// started the task), so nothing says what the run's should be.
    StartUnrecorded,
}

/// One variable of the gate environment ([`ledger::in_gate_environment`])
/// whose value at a run differs from the start's; `None` for unset.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference<'a> {
    pub name: &'a str,
    pub start: Option<&'a str>,
    pub run: Option<&'a str>,
}

/// Whether a run was made under the environment the task started in:
/// `None` when it was, else why it is not known to be.
pub fn elsewhere<'a>(start: Option<&'a Environment>, run: &'a RecordedRun) -> Option<Elsewhere<'a>> {
    let Some(start) = start else { return Some(Elsewhere::StartUnrecorded) };
    let Some(at_run) = &run.environment else { return Some(Elsewhere::RunUnrecorded) };
    let value = |env: &'a Environment, name: &str| env.get(name).and_then(Option::as_deref);
    let differs: Vec<Difference<'a>> = ledger::compared_names(start, at_run)
        .into_iter()
        .filter(|name| !ledger::same_value(name, value(start, name), value(at_run, name)))
        .map(|name| Difference { name, start: value(start, name), run: value(at_run, name) })
        .collect();
    (!differs.is_empty()).then_some(Elsewhere::Differs(differs))
}

/// Judges a gate's runs against its inputs now and the environment the
/// task started in (`None`: the record holds none, or there is no task).
pub fn gate_state<'a>(runs: &'a Result<GateRuns, Unread>, start: Option<&'a Environment>) -> GateState<'a> {
    match runs {
        Err(e) => GateState::Unread(e),
        Ok(GateRuns { current: Some(run), unseen, off_record, left, .. }) if run.passed() => {
            match elsewhere(start, run) {
                None if !unseen.is_empty() => GateState::Unseen { run, paths: unseen },
                None if !off_record.is_empty() => GateState::OffRecord { run, files: off_record },
                None if !left.is_empty() => GateState::LeftOnDisk { run, paths: left },
                None => GateState::Passing(run),
                Some(why) => GateState::Elsewhere { run, why },
            }
        }
        Ok(GateRuns { current: Some(run), .. }) => GateState::Failed(run),
        Ok(GateRuns { latest, off_index, .. }) if !off_index.is_empty() => {
            GateState::NotCommitted { last: latest.as_ref(), files: off_index }
        }
        Ok(GateRuns { latest: Some(last), inputs_now, .. }) => GateState::Stale { last, now: inputs_now },
        Ok(GateRuns { latest: None, .. }) => GateState::NeverReported,
    }
}

/// One gate's state as a clause of evidence.
pub(crate) fn gate_clause(id: &str, state: &GateState<'_>) -> String {
    let by = |run: &RecordedRun| match &run.commit {
        Some(c) => format!("run at {} on {}", run.at, short(c)),
        None => format!("run at {}", run.at),
    };
    match state {
        GateState::Passing(run) => format!("{id} passed over its inputs as they are now ({})", by(run)),
        GateState::Failed(run) if run.timed_out => {
            format!("{id} timed out after {} s over its inputs as they are now ({})", run.duration_ms / 1000, by(run))
        }
        GateState::Failed(run) => {
            format!("{id} failed over its inputs as they are now (exit {}, {})", run.exit, by(run))
        }
        GateState::NeverReported => format!("{id} never reported, and never reported is not green"),
        GateState::Stale { last, now } => format!(
            "{id} is stale: its inputs hashed {} at its last run ({}) and hash {} now",
            short(&last.inputs_hash),
            by(last),
            short(now)
        ),
        GateState::Elsewhere { run, why: Elsewhere::Differs(d) } => {
            let named: Vec<&str> = d.iter().map(|d| d.name).collect();
            format!(
                "{id} passed over its inputs as they are now ({}), but its run's {} {} from the start's, so the pass is not counted",
                by(run),
                and_list(&named),
                if named.len() == 1 { "differs" } else { "differ" }
            )
        }
        GateState::Elsewhere { run, why: Elsewhere::RunUnrecorded } => format!(
            "{id} passed over its inputs as they are now ({}), but the run was recorded without the environment that chose its programs (an older majordomus recorded it), so the pass is not counted",
            by(run)
        ),
        GateState::Elsewhere { run, why: Elsewhere::StartUnrecorded } => format!(
            "{id} passed over its inputs as they are now ({}), but the task record holds no start environment to compare the run's with (an older majordomus started the task), so whether the pass is the gate's cannot be said",
            by(run)
        ),
        GateState::Unseen { run, paths } => format!(
            "{id} passed over its inputs as they are now ({}), but {} changed since the start {} outside the working tree it ran in (left out by a sparse checkout, or a submodule not checked out), so the run never saw {}: {}",
            by(run),
            count(paths.len(), "input"),
            if paths.len() == 1 { "lies" } else { "lie" },
            if paths.len() == 1 { "it" } else { "them" },
            names(paths)
        ),
        GateState::OffRecord { run, files } => format!(
            "{id} passed over its inputs as they are now ({}), but core.fileMode is false, so git looks away from the executable bit, and {} {} an executable bit on disk other than the mode git records: {}; the command ran over a mode the commit does not hold, so a checkout of it does not run the same",
            by(run),
            count(files.len(), "input"),
            if files.len() == 1 { "has" } else { "have" },
            files.iter().map(off_record).collect::<Vec<_>>().join(", ")
        ),
        GateState::NotCommitted { last, files } => format!(
            "{id} {}, and {} the task changed {} on disk other content than the blob git records at {} path (HEAD's, and the index's), though git reads {} clean (its stat data was recorded beside other content, as a clean filter given to one git add leaves it): {}; a run here is over content the commit does not hold",
            match last {
                Some(run) => format!("has no run over its inputs as the commit holds them (its last, {}, was over other content)", by(run)),
                None => "never reported".to_string(),
            },
            count(files.len(), "input"),
            if files.len() == 1 { "holds" } else { "hold" },
            if files.len() == 1 { "its" } else { "their" },
            if files.len() == 1 { "it" } else { "them" },
            files.iter().map(off_index).collect::<Vec<_>>().join(", ")
        ),
        GateState::LeftOnDisk { run, paths } => format!(
            "{id} passed over its inputs as they are now ({}), but {} the start commit tracked {} on disk, ignored now, though the commit no longer holds {}: {}; the run read {}, so it is not a run over the commit",
            by(run),
            count(paths.len(), "input"),
            if paths.len() == 1 { "is still" } else { "are still" },
            if paths.len() == 1 { "it" } else { "them" },
            names(paths),
            if paths.len() == 1 { "it" } else { "them" }
        ),
        GateState::Unread(e) => format!("{id} could not be read: {}", e.reason),
    }
}

/// `src/lib.rs`, or `data.bin (under filter=lfs, a driver majordomus does not run)`.
fn off_index(f: &OffIndex) -> String {
    match &f.filter {
        Some(driver) => format!("{} (under filter={driver}, a driver majordomus does not run)", f.path),
        None => f.path.clone(),
    }
}

/// `ci/check.sh (executable on disk, 100644 in git)`.
fn off_record(f: &OffRecord) -> String {
    let disk = if f.on_disk & 0o111 != 0 { "executable" } else { "not executable" };
    format!("{} ({disk} on disk, {:06o} in git)", f.path, f.recorded)
}

/// What records the modes a gate ran over: `git update-index --chmod`
/// with each file's bit on disk, then a commit; or the disk's bit put back
/// as git records it, and the gate run again.
fn record_modes(files: &[&OffRecord], owed: &[&str]) -> String {
    let (plus, minus): (Vec<&&OffRecord>, Vec<&&OffRecord>) = files.iter().partition(|f| f.on_disk & 0o111 != 0);
    let paths = |fs: &[&&OffRecord]| fs.iter().map(|f| shell_word(&f.path)).collect::<Vec<_>>().join(" ");
    let mut record = Vec::new();
    let mut undo = Vec::new();
    if !plus.is_empty() {
        record.push(format!("git update-index --chmod=+x {}", paths(&plus)));
        undo.push(format!("chmod -x {}", paths(&plus)));
    }
    if !minus.is_empty() {
        record.push(format!("git update-index --chmod=-x {}", paths(&minus)));
        undo.push(format!("chmod +x {}", paths(&minus)));
    }
    let run = match owed {
        [one] => format!("majordomus gate run {}", shell_word(one)),
        _ => "majordomus gate run --all".to_string(),
    };
    format!(
        "record the mode the gate ran with ({} and commit), or give the files the mode git records ({}) and {run}",
        record.join("; "),
        undo.join("; ")
    )
}

/// `PATH`, `PATH and SHELL`, `PATH, ENV and SHELL`.
pub fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The command that runs `ids` again under the start's values of the
/// variables that differ: `env -u BASH_ENV PATH='/usr/bin:/bin' majordomus
/// gate run unit`.
pub fn rerun_from_the_start(differences: &[&Difference<'_>], ids: &[&str]) -> String {
    let mut unset = Vec::new();
    let mut set = Vec::new();
    let mut seen = Vec::new();
    for d in differences {
        if seen.contains(&d.name) {
            continue;
        }
        seen.push(d.name);
        match d.start {
            None => unset.push(format!("-u {}", d.name)),
            Some(v) => set.push(format!("{}='{}'", d.name, v.replace('\'', "'\\''"))),
        }
    }
    let run = match ids {
        [one] => format!("majordomus gate run {one}"),
        _ => "majordomus gate run --all".to_string(),
    };
    let env: Vec<String> = unset.into_iter().chain(set).collect();
    format!("env {} {run}", env.join(" "))
}

/// The files a test runner reads for what to run, beyond the words of its
/// command, by the runner's name: a task that edits them changes what the
/// gate does as surely as one that edits its script (`npm test` runs
/// `package.json`'s test script, `make test` the Makefile's recipe;
/// pytest takes `addopts` from its configuration and fixtures from every
/// `conftest.py`; cargo a test runner from `.cargo/config.toml` and
/// `test = false` from a `Cargo.toml`; make the makefiles its `include`s
/// pull in, `*.mk`; Python, before the module `-m` names, its
/// `sitecustomize` and `usercustomize`, and the module itself where the
/// repository holds one of that name, which shadows the standard
/// library's: `python3 -m unittest` runs a `unittest/__main__.py` of the
/// repository's). Each name is matched at any depth; `*.x`, any name
/// ending `.x`.
const RUNNER_READS: &[(&[&str], &[&str])] = &[
    (&["npm", "npx", "yarn", "pnpm", "bun"], &["package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml"]),
    (&["make", "gmake"], &["Makefile", "makefile", "GNUmakefile", "*.mk"]),
    (
        &["pytest", "py.test", "tox"],
        &[
            "pytest.ini",
            ".pytest.ini",
            "pytest.toml",
            ".pytest.toml",
            "pyproject.toml",
            "setup.cfg",
            "tox.ini",
            "conftest.py",
        ],
    ),
    (&["nox"], &["noxfile.py"]),
    (&["cargo"], &["Cargo.toml", ".cargo/config.toml", ".cargo/config", "rust-toolchain.toml", "rust-toolchain"]),
    (&["python"], &["sitecustomize.py", "usercustomize.py"]),
    (&["prove"], &[".proverc"]),
    (&["rspec"], &[".rspec"]),
    (&["just"], &["justfile", "Justfile", ".justfile"]),
];

/// The files a Python module named `module` (`-m module`) is run from at
/// the repository's root, where one is there: they come first on its path.
fn module_files(module: &str) -> [String; 3] {
    let dir = module.replace('.', "/");
    [format!("{dir}.py"), format!("{dir}/__init__.py"), format!("{dir}/__main__.py")]
}

/// Whether the changed `path` is `name` at any depth (`*.x`: ends `.x`).
fn is_read(path: &str, name: &str) -> bool {
    match name.strip_prefix('*') {
        Some(suffix) => path.ends_with(suffix),
        None => path == name || path.strip_suffix(name).is_some_and(|head| head.ends_with('/')),
    }
}

/// What of the change set a gate's command names or its runner reads.
#[derive(Debug, Default, PartialEq)]
pub struct Edited<'a> {
    /// The command's words that are paths changed since the start (`./`
    /// aside; for `--flag=PATH`, what follows `=`).
    pub named: Vec<&'a str>,
    /// The changed files a runner the command names reads ([`RUNNER_READS`]).
    pub read: Vec<&'a str>,
}

impl Edited<'_> {
    pub fn is_empty(&self) -> bool {
        self.named.is_empty() && self.read.is_empty()
    }

    /// Every file, named first.
    pub fn all(&self) -> Vec<&str> {
        self.named.iter().chain(&self.read).copied().collect()
    }

    /// `its command names ci/check.sh`, `the runner its command names
    /// reads package.json`, or both, then `, changed since the start`.
    pub fn clause(&self) -> String {
        let named = (!self.named.is_empty()).then(|| format!("its command names {}", names(&self.named)));
        let read = (!self.read.is_empty()).then(|| format!("the runner its command names reads {}", names(&self.read)));
        let parts: Vec<String> = named.into_iter().chain(read).collect();
        format!("{}, changed since the start", parts.join(", and "))
    }
}

/// The repository files a gate's command names, and those the runners it
/// names read, that changed since the start. A gate's script and its
/// runner's configuration are the repository's code like any other;
/// naming them beside the verdict is what lets a reader see a gate the
/// task edited.
pub fn named_and_changed<'a>(run: &str, changes: &'a ChangeSet) -> Edited<'a> {
    let mut out = Edited::default();
    let mut runners: Vec<&[&str]> = Vec::new();
    let mut modules: Vec<String> = Vec::new();
    let mut after_m = false;
    for word in run.split(|c: char| c.is_whitespace() || ";&|()<>`\"'".contains(c)) {
        let word = word.rsplit_once('=').map_or(word, |(_, v)| v);
        let word = word.trim_start_matches("./");
        if word.is_empty() {
            continue;
        }
        if std::mem::replace(&mut after_m, word == "-m") {
            modules.extend(module_files(word));
        }
        // `python3.12` is `python`: the version aside.
        let program =
            word.rsplit('/').next().unwrap_or(word).trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        for (names, reads) in RUNNER_READS {
            if names.contains(&program) && !runners.contains(reads) {
                runners.push(reads);
            }
        }
        if let Ok(i) = changes.changed.binary_search_by(|p| p.as_bytes().cmp(word.as_bytes())) {
            // Equal to a word of the command, so UTF-8.
            if let Some(path) = changes.changed[i].to_str() {
                if !out.named.contains(&path) {
                    out.named.push(path);
                }
            }
        }
    }
    for path in changes.changed.iter().filter_map(|p| p.to_str()) {
        let read = runners.iter().flat_map(|reads| reads.iter()).any(|name| is_read(path, name))
            || modules.iter().any(|m| path == m);
        if read && !out.named.contains(&path) && !out.read.contains(&path) {
            out.read.push(path);
        }
    }
    out
}

/// A gate's reading as data, for `details`.
pub(crate) fn gate_details(g: &GateReading, start: Option<&Environment>) -> serde_json::Value {
    let mut d = json!({
        "id": g.id,
        "required": g.required,
        "always": g.always,
        "selected": g.selected(),
        "known_failing": g.known_failing(),
        "matched": g.matched.iter().take(20).collect::<Vec<_>>(),
        "matched_count": g.matched.len(),
    });
    if let Some(runs) = &g.runs {
        let state = gate_state(runs, start);
        if let GateState::Elsewhere { why: Elsewhere::Differs(diff), .. } = &state {
            d = with(d, json!({ "environment_differs": diff.iter().map(|x| x.name).collect::<Vec<_>>() }));
        }
        let extra = match runs {
            Ok(r) => json!({
                "state": state.label(),
                "inputs_now": r.inputs_now,
                "files": r.files,
                "run": r.current.as_ref().or(r.latest.as_ref()),
            }),
            Err(e) => json!({ "state": state.label(), "unread": e.reason }),
        };
        d = with(d, extra);
    } else {
        d = with(d, json!({ "state": "not selected" }));
    }
    d
}

/// Why no gate is selected, as a clause.
fn none_selected_because(set: &GateSet) -> String {
    if set.changed == 0 {
        return "nothing changed since the start and none is marked always".to_string();
    }
    let globs: Vec<String> = set
        .gates
        .iter()
        .map(|g| {
            if g.inputs.is_empty() {
                format!("{}: no inputs", g.id)
            } else {
                format!("{}: {}", g.id, g.inputs.join(", "))
            }
        })
        .collect();
    format!("{} their inputs ({}) and none is marked always", no_change_matches(set.changed), globs.join("; "))
}

/// `the one path changed since the start matches none of`, `none of the 3
/// paths changed since the start matches`: the start of a sentence saying
/// no changed path selects a gate.
pub fn no_change_matches(changed: usize) -> String {
    match changed {
        1 => "the one path changed since the start matches none of".to_string(),
        n => format!("none of the {n} paths changed since the start matches"),
    }
}

pub(crate) fn gates_green(r: &Readings) -> Judgement {
    let set = match &r.verification.gates {
        Ok(s) => s,
        Err(e) => return Judgement::unread(e),
    };
    if set.gates.is_empty() {
        return Judgement::new(
            Status::Exempt,
            "No gate is declared in .ai/repo/majordomus.toml, so there is nothing to run.",
            json!({ "declared": 0 }),
        )
        .remedy("declare the repository's gates in .ai/repo/majordomus.toml");
    }
    let start = start_environment(r);
    let selected: Vec<&GateReading> = set.gates.iter().filter(|g| g.selected()).collect();
    let optional: Vec<&str> = selected.iter().filter(|g| !g.required).map(|g| g.id.as_str()).collect();
    // A required gate the change does not select, known to fail over the
    // inputs as they are now, is counted too: a failure is a fact about the
    // tree handed over.
    let failing = set.gates.iter().filter(|g| g.known_failing());
    let counted: Vec<(&GateReading, GateState<'_>)> = selected
        .iter()
        .copied()
        .chain(failing)
        .filter(|g| g.required)
        .map(|g| {
            let state = match &g.runs {
                Some(runs) => gate_state(runs, start),
                None => GateState::NeverReported,
            };
            (g, state)
        })
        .collect();
    // The files each counted gate's command names that changed since the start.
    let edited: Vec<(&str, Edited<'_>)> = match &r.changes {
        Ok(changes) => counted
            .iter()
            .map(|(g, _)| (g.id.as_str(), named_and_changed(&g.run, changes)))
            .filter(|(_, named)| !named.is_empty())
            .collect(),
        Err(_) => Vec::new(),
    };
    let optional_clause = match optional.len() {
        0 => String::new(),
        1 => format!(" ({} is selected but not required, so it is not counted)", optional[0]),
        _ => format!(" ({} are selected but not required, so they are not counted)", names(&optional)),
    };
    let mut details = json!({
        "declared": set.gates.len(),
        "changed": set.changed,
        "selected": counted.iter().map(|(g, _)| &g.id).collect::<Vec<_>>(),
        "optional": optional,
        "gates": set.gates.iter().map(|g| gate_details(g, start)).collect::<Vec<_>>(),
        "commands_name_changed": edited.iter().map(|(id, edited)| (id.to_string(), json!(edited.all()))).collect::<serde_json::Map<_, _>>(),
    });
    if counted.is_empty() {
        let why = if selected.is_empty() {
            none_selected_because(set)
        } else {
            "every gate the change selects is optional".to_string()
        };
        return Judgement::new(
            Status::Pass,
            format!(
                "No required gate is selected among the {}: {why}{optional_clause}.",
                count(set.gates.len(), "declared gate")
            ),
            details,
        );
    }
    let mut tally: Vec<(&'static str, usize)> = Vec::new();
    for (_, state) in &counted {
        match tally.iter_mut().find(|(l, _)| *l == state.label()) {
            Some((_, n)) => *n += 1,
            None => tally.push((state.label(), 1)),
        }
    }
    let order = [
        "passing",
        "failed",
        "never reported",
        "stale",
        "other environment",
        "outside the checkout",
        "environment unknown",
        "unread",
    ];
    tally.sort_by_key(|(l, _)| order.iter().position(|o| o == l));
    details = with(
        details,
        json!({ "counts": tally.iter().map(|(l, n)| (l.replace(" ", "_"), json!(n))).collect::<serde_json::Map<_, _>>() }),
    );
    let worst = |s: Status| counted.iter().any(|(_, st)| st.status() == s);
    let status = if worst(Status::Refused) {
        Status::Refused
    } else if worst(Status::Unknown) {
        Status::Unknown
    } else if worst(Status::Owed) {
        Status::Owed
    } else {
        Status::Pass
    };
    let clauses: Vec<String> = counted
        .iter()
        .map(|(g, st)| {
            let clause = match g.known_failing() {
                true => format!(
                    "{} (selected by no change since the start, but a failure the task recorded over the tree as it is counts)",
                    gate_clause(&g.id, st)
                ),
                false => gate_clause(&g.id, st),
            };
            match edited.iter().find(|(id, _)| *id == g.id) {
                Some((_, edited)) => format!("{clause} ({})", edited.clause()),
                None => clause,
            }
        })
        .collect();
    let evidence = format!(
        "{} {}: {}{optional_clause}; {}.",
        count(counted.len(), "gate"),
        match counted.iter().any(|(g, _)| g.known_failing()) {
            true => "selected or known to fail",
            false => "selected",
        },
        tally.iter().map(|(l, n)| format!("{n} {l}")).collect::<Vec<_>>().join(", "),
        clauses.join("; ")
    );
    let ids_in = |s: Status| -> Vec<&str> {
        counted.iter().filter(|(_, st)| st.status() == s).map(|(g, _)| g.id.as_str()).collect()
    };
    let v = Judgement::new(status, evidence, details);
    match status {
        Status::Refused => {
            let failed = ids_in(Status::Refused);
            match failed.as_slice() {
                [one] => v.remedy(format!("fix what the gate {one} reports, then majordomus gate run {one}")),
                _ => v.remedy("fix what the failing gates report, then majordomus gate run --all"),
            }
        }
        Status::Owed => {
            let owed = ids_in(Status::Owed);
            let differences: Vec<&Difference<'_>> = counted
                .iter()
                .filter_map(|(_, st)| match st {
                    GateState::Elsewhere { why: Elsewhere::Differs(d), .. } => Some(d),
                    _ => None,
                })
                .flatten()
                .collect();
            let unseen: Vec<&str> = counted
                .iter()
                .filter_map(|(_, st)| match st {
                    GateState::Unseen { paths, .. } => Some(paths.iter().map(String::as_str)),
                    _ => None,
                })
                .flatten()
                .collect();
            let off: Vec<&OffRecord> = counted
                .iter()
                .filter_map(|(_, st)| match st {
                    GateState::OffRecord { files, .. } => Some(files.iter()),
                    _ => None,
                })
                .flatten()
                .collect();
            let not_committed: Vec<&str> = counted
                .iter()
                .filter_map(|(_, st)| match st {
                    GateState::NotCommitted { files, .. } => Some(files.iter().map(|f| f.path.as_str())),
                    _ => None,
                })
                .flatten()
                .collect();
            let left: Vec<&str> = counted
                .iter()
                .filter_map(|(_, st)| match st {
                    GateState::LeftOnDisk { paths, .. } => Some(paths.iter().map(String::as_str)),
                    _ => None,
                })
                .flatten()
                .collect();
            let run = match owed.as_slice() {
                [one] => format!("majordomus gate run {}", shell_word(one)),
                _ => "majordomus gate run --all".to_string(),
            };
            let words = |paths: &[&str]| paths.iter().map(|p| shell_word(p)).collect::<Vec<_>>().join(" ");
            if !not_committed.is_empty() && unseen.is_empty() && differences.is_empty() {
                let paths = words(&not_committed);
                v.remedy(format!(
                    "commit what is on disk without a filter (git add --renormalize {paths}, then commit and push), or put back what the commit holds (rm {paths} && git checkout HEAD -- {paths}); where a checkout writes its line ends otherwise than the disk holds them (text=auto), say in .gitattributes how it is kept (-text, or eol=crlf) and commit that; then {run}"
                ))
            } else if !left.is_empty() && unseen.is_empty() && differences.is_empty() {
                let paths = words(&left);
                v.remedy(format!(
                    "remove from the working tree what the commit no longer holds (rm {paths}), or commit it again (git add -f {paths}, then commit and push); then {run}"
                ))
            } else if !off.is_empty() && unseen.is_empty() && differences.is_empty() {
                v.remedy(record_modes(&off, &owed))
            } else if !unseen.is_empty() {
                let run = match owed.as_slice() {
                    [one] => format!("majordomus gate run {}", shell_word(one)),
                    _ => "majordomus gate run --all".to_string(),
                };
                v.remedy(format!(
                    "bring {} into the working tree (git sparse-checkout add with {} directories, or git sparse-checkout disable; git submodule update --init for a submodule), then {run}",
                    names(&unseen),
                    if unseen.len() == 1 { "its" } else { "their" }
                ))
            } else if differences.is_empty() {
                match owed.as_slice() {
                    [one] => v.command(format!("majordomus gate run {}", shell_word(one))),
                    _ => v.command("majordomus gate run --all"),
                }
            } else {
                let mut named: Vec<&str> = differences.iter().map(|d| d.name).collect();
                named.dedup();
                v.remedy(format!(
                    "run it again from the environment the task started in ({} as at the start): {}",
                    and_list(&named),
                    rerun_from_the_start(&differences, &owed)
                ))
            }
        }
        Status::Unknown if counted.iter().any(|(_, st)| matches!(st, GateState::Elsewhere { .. })) => v.remedy(
            "finish the task and start it again, so its record holds the environment its gates run under; then majordomus gate run --all",
        ),
        _ => v,
    }
}

/// The environment the task started in, as its record holds it.
pub(crate) fn start_environment(r: &Readings) -> Option<&Environment> {
    r.task.record().and_then(|t| t.snapshot.gate_environment.as_ref())
}

#[cfg(test)]
mod tests;
