//! Running a gate: the only way a verdict enters the ledger.
//!
//! A worker saying "the tests pass" is a recollection; a gate run is a
//! measurement. `prepare` hashes the gate's inputs (twice, stamping them
//! between) and reads HEAD *before* the command starts (the verdict covers the content it was run over, not
//! whatever the files hold when it ends); `execute` runs the declared command
//! through `/bin/sh -c` in the repository root, stdin closed, its output
//! streamed straight through, in a process group of its own so that a time
//! limit or an interruption stops everything it started; `record` appends
//! the verdict to the ledger as one whole line, with the environment that
//! chose the programs the command ran (`ledger::GATE_ENVIRONMENT`).
//!
//! The shell is named by its absolute path, so no `sh` earlier on `PATH`
//! stands in for it. What the command itself runs is still looked up on
//! `PATH` (the command is the repository's, and `cargo`, `pytest` or `grep`
//! are found there); so the values that chose those programs are recorded
//! beside the verdict, and `gates-green` does not count a pass recorded
//! under values other than the task's start.
//!
//! The command runs in the repository majordomus hashed, and only there:
//! the variables that point git at another repository, index or object
//! store (`GIT_DIR`, `GIT_INDEX_FILE`, ...: [`REPOSITORY_ENV`]) are taken out
//! of its environment, as git itself takes them out when it runs a command
//! in another repository. Under `GIT_INDEX_FILE=/tmp/empty` a gate's `git
//! ls-files` would list nothing and check nothing, over inputs hashed from
//! the real index.
//!
//! An interruption is any signal that would end majordomus, counted by the
//! caller ([`Signals`]). The first stops the group: SIGTERM, a grace period,
//! SIGKILL. A further one during the grace cuts it short: SIGKILL at once.
//! Either way the group is killed before `execute` returns, and no outcome is
//! returned, so no verdict is recorded: majordomus never exits leaving a gate
//! running behind it.
//!
//! A SIGKILL cannot be caught, so a [`Supervisor`] covers it: a program that
//! leads the group, runs the shell in it, and stops the group when its own
//! parent dies (the `majordomus` binary's hidden `supervise` mode,
//! apps/majordomus-cli/src/supervise.rs). It ends as the shell ended, so the
//! outcome reads the same through it.
//!
//! Nothing here decides whether a verdict is green for the invariant: that
//! is `gates-green`'s (`src/family/verification/judge.rs`), over the
//! readings of `src/family/verification/readings.rs`.

use std::ffi::OsString;
use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use majordomus_readings::inputs::stamps::Stamps;
use majordomus_readings::inputs::{Inputs, Reach};
use majordomus_readings::{refs, Reading, Repo, Unread};
use majordomus_records::ledger::{self, Entry, Environment, Event};
use majordomus_records::policy::Gate;
use majordomus_records::task::TaskState;
use majordomus_records::StatePaths;

/// The shell a gate's command runs in, by absolute path: POSIX puts it there.
pub const SHELL: &str = "/bin/sh";

/// The variables that choose which repository, index or objects git reads,
/// as `git rev-parse --local-env-vars` lists them: a gate's command runs
/// without them, in the repository whose inputs were hashed.
pub const REPOSITORY_ENV: [&str; 16] = [
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_REPLACE_REF_BASE",
    "GIT_PREFIX",
    "GIT_INTERNAL_SUPER_PREFIX",
    "GIT_SHALLOW_FILE",
    "GIT_COMMON_DIR",
];

/// How long a stopped gate is given to end after SIGTERM before SIGKILL.
const GRACE: Duration = Duration::from_secs(2);

/// A gate about to run: what it will be judged over.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub id: String,
    pub gate: Gate,
    /// Its inputs as they are before the command starts.
    pub inputs: Inputs,
    /// HEAD before the command starts (`None`: unborn).
    pub commit: Option<String>,
    pub started_at: chrono::DateTime<chrono::Utc>,
    /// The environment the command runs under (it inherits this process's).
    pub environment: Environment,
    /// The input files' stamps, taken after a first read of the inputs and
    /// before the read `inputs` holds ([`prepare`]): [`Prepared::moved`]
    /// compares them after the run.
    pub stamps: Stamps,
    /// The untracked inputs git ignores now, by a rule that did not hold at
    /// the task's start (so they count as inputs), sorted: no part of the
    /// work, and the only inputs a rewrite to the same content may leave
    /// the verdict standing over ([`Prepared::moved`]).
    pub ignored_since: Vec<String>,
    /// The inputs the task changed whose modification time is older than
    /// the task's start, or than their own last change of status
    /// ([`set_back`]), sorted: a build tool that compares times (make,
    /// cargo) takes what it built before from their old content for up to
    /// date, so a run over them is no run over what they hold, and none is
    /// made (test/cases/601, 609).
    pub set_back: Vec<String>,
}

impl Prepared {
    /// The input files that changed since they were hashed (while the gate
    /// ran, when asked after it): a verdict would cover content the command
    /// may never have seen, so none is recorded.
    ///
    /// But for a file git ignores now, by a rule newer than the start,
    /// found holding again the content and mode it was hashed with: a
    /// tool's cache that ignores itself (pytest's `.pytest_cache`, whose
    /// `nodeids` it writes again at every run, byte for byte) would
    /// otherwise void every run (test/cases/504). Its stamp says a write
    /// came; its content says what the verdict covers is what is there. A
    /// write put back before the command ended is not told apart from one
    /// that changed nothing, so only such files are read again: a tracked
    /// file or any other untracked one (the work, and what it could be
    /// swapped for during the run) still voids the run when its stamp moves.
    pub fn moved(&self, repo: &Repo) -> Vec<String> {
        let moved = self.stamps.moved_in(&Stamps::take(repo, &self.inputs.paths));
        moved
            .into_iter()
            .filter(|p| self.ignored_since.binary_search(p).is_err() || !self.inputs.holds_as_hashed(repo, p))
            .collect()
    }
}

/// How many times [`prepare`] reads the inputs again when they changed
/// while it read them, before it gives up.
const READS: usize = 4;

/// Reads what a run of `gate` will cover: a fresh status pass, the hash of
/// its inputs, HEAD.
///
/// The stamps that tell whether an input changed while the command ran
/// must be taken before the inputs are read, or a write between the read
/// and the stamps goes unseen (a clean tracked file is hashed by its index
/// id as the status pass found it, and a file written after that pass and
/// before the stamps is stamped as rewritten: test/cases/470). The paths
/// are only known once the inputs are read, so they are read twice: the
/// stamps are taken between, and the second read is the one the verdict
/// covers. A write before the stamps makes the second read differ from the
/// first (the inputs are read again, the stamps taken again); a write after
/// them moves a stamp by the command's end ([`Prepared::moved`]). So any
/// write from the first read to the command's end voids the run.
pub fn prepare(repo: &Repo, id: &str, gate: &Gate, task: &TaskState) -> Reading<Prepared> {
    let changed = changed_inputs(repo, gate, task);
    // The first read takes the index's ids (the paths to stamp are all it
    // is for); the reads after the stamps read each clean tracked input
    // from disk, once where nothing is off.
    let (mut inputs, _) = read_inputs(repo, gate, task, Reach { changed: &changed, as_on_disk: false })?;
    for _ in 0..READS {
        let stamps = Stamps::take(repo, &inputs.paths);
        let (again, ignored_since) = read_inputs(repo, gate, task, Reach { changed: &changed, as_on_disk: true })?;
        if again == inputs {
            let commit = refs::head(repo)?.commit;
            // One whose content on disk is not its blob is named, and its
            // verdict not found over the commit, already (test/cases/522).
            let set_back: Vec<String> = set_back(repo, &changed, task)
                .into_iter()
                .filter(|p| !inputs.off_index.iter().any(|f| &f.path == p))
                .collect();
            return Ok(Prepared {
                stamps,
                id: id.to_string(),
                gate: gate.clone(),
                inputs,
                commit,
                started_at: chrono::Utc::now(),
                environment: ledger::gate_environment(),
                ignored_since,
                set_back,
            });
        }
        inputs = again;
    }
    Err(Unread::io(format!(
        "the inputs of the gate {id}: they changed each of the {} times they were read; leave them alone while a \
         gate is being started",
        READS + 1
    )))
}

/// Of `changed` (inputs whose content the task changed), the files whose
/// modification time was set back, sorted: older than the task's start, or
/// older than the file's own change time ([`dated_back`]). A write sets
/// both times to now, so a file changed since the start holds a later
/// modification time than the start, and its change time is its
/// modification time, unless the time was set back (`touch -r OLD`,
/// `touch -d`, `cp -p`, `tar x` or `rsync -a` of a copy, a file written
/// earlier moved over it): make and cargo then take a build made since
/// that time, or before it, from the file's earlier content for up to date,
/// and run it. The change time is the kernel's, and nothing sets it back
/// (test/cases/609). Read only for the changed inputs, one `lstat` each
/// (and a `stat` for a symbolic link), at `gate run`.
fn set_back(repo: &Repo, changed: &[String], task: &TaskState) -> Vec<String> {
    use std::os::unix::fs::MetadataExt;
    let TaskState::Active(record) = task else { return Vec::new() };
    let Ok(start) = record.started_at().map(|t| t.timestamp()) else { return Vec::new() };
    // The start commit's blob there: a file whose content is still the
    // start's (an index entry taken away, `git rm --cached`; a commit made
    // through a clean filter; a mode changed by `chmod`) built what it
    // holds, and is no stale build.
    let tree = record
        .head
        .as_deref()
        .and_then(|h| git2::Oid::from_str(h).ok())
        .and_then(|id| repo.git.find_commit(id).ok().and_then(|c| c.tree().ok()));
    let as_at_start = |p: &str, full: &std::path::Path| {
        let at_start = tree.as_ref().and_then(|t| t.get_path(std::path::Path::new(p)).ok()).map(|e| e.id());
        at_start.is_some_and(|id| majordomus_readings::file::blob_id(full).is_ok_and(|now| now == id))
    };
    let mut old: Vec<String> = changed
        .iter()
        .filter(|p| {
            let full = repo.root().join(p.as_str());
            let Ok(own) = std::fs::symlink_metadata(&full) else { return false };
            // A symbolic link is read as make and cargo read it, through to
            // the file it leads to: that file's modification time, and the
            // later of the two change times (a link to a file written before
            // the last build, made since, is a time set back: test/cases/610).
            let led_to = if own.file_type().is_symlink() { std::fs::metadata(&full).ok() } else { Some(own.clone()) };
            let Some(m) = led_to.filter(|m| m.file_type().is_file()) else { return false };
            let changed = FileTime { secs: own.ctime(), nanos: own.ctime_nsec() }
                .max(FileTime { secs: m.ctime(), nanos: m.ctime_nsec() });
            dated_back(FileTime { secs: m.mtime(), nanos: m.mtime_nsec() }, changed, start) && !as_at_start(p, &full)
        })
        .cloned()
        .collect();
    old.sort();
    old
}

/// A file time, as `stat` gives it: seconds and nanoseconds since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct FileTime {
    secs: i64,
    nanos: i64,
}

impl FileTime {
    fn nanos(self) -> i128 {
        i128::from(self.secs) * 1_000_000_000 + i128::from(self.nanos)
    }
}

/// How much older than its change time a file's modification time may be
/// and still be taken for a write's own: a save that writes a new file and
/// renames it over the old one (an editor's, `sed -i`'s) changes the time
/// of the rename, a few milliseconds after the write.
const RENAME_AFTER_WRITE_NANOS: i128 = 100_000_000;

/// Whether a file whose content changed since the start, modified at
/// `modified` and changed (its inode: content, times, mode, name, links)
/// at `changed`, had its modification time set back: older than the start
/// (in whole seconds, as the start is recorded), or older than its change
/// time by more than a rename after the write takes. Nothing but the
/// kernel sets the change time, to now, at each write and at each
/// `utimensat`, so a time put back with `touch -d` between the start and a
/// build is still told. A `chmod`, `mv` or `ln` after the last write moves
/// the change time too, so such a file is told as set back: what it was
/// built from cannot be told apart, and `touch` dates it now.
fn dated_back(modified: FileTime, changed: FileTime, start: i64) -> bool {
    modified.secs < start || changed.nanos() - modified.nanos() > RENAME_AFTER_WRITE_NANOS
}

/// The paths changed since the task's start that match `gate`'s inputs, as
/// `check` selects them (none without a task, or where the change set
/// cannot be read): the paths the start tracked that the index no longer
/// holds are among them (test/cases/523).
fn changed_inputs(repo: &Repo, gate: &Gate, task: &TaskState) -> Vec<String> {
    use crate::family::verification::readings as verification;
    let (_, changes) = verification::change_set(repo, task);
    let gitlinks = verification::gitlinks(repo);
    changes.ok().and_then(|c| verification::matched(gate, &c, &gitlinks).ok()).unwrap_or_default()
}

/// A fresh status pass and the hash of `gate`'s inputs over it, read as
/// `check` reads them, or the verdict's hash would never match, but for
/// the tracked inputs git reads clean: each is read from disk, since that
/// is what the command runs over, and one whose content is not the blob
/// git records is hashed as read (a clean filter given to one `git add`:
/// test/cases/522), so the verdict is not found again over the commit's
/// content. With the untracked paths that pass found ignored by a rule
/// newer than the start.
fn read_inputs(repo: &Repo, gate: &Gate, task: &TaskState, reach: Reach<'_>) -> Reading<(Inputs, Vec<String>)> {
    use majordomus_readings::status::Why;
    let tree = crate::measure::working_tree(repo, task)?;
    let inputs = crate::family::verification::readings::inputs_now(repo, &tree, gate, reach)?;
    let mut ignored_since: Vec<String> =
        tree.overruled.iter().filter(|o| matches!(o.why, Why::IgnoredSince(_))).map(|o| o.path.to_string()).collect();
    ignored_since.sort();
    Ok((inputs, ignored_since))
}

/// How the command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The exit status; 128 + the signal for a command killed by one.
    pub exit: i32,
    pub duration: Duration,
    /// The time limit ran out and the command was stopped.
    pub timed_out: bool,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.exit == 0 && !self.timed_out
    }
}

/// How many signals that would end majordomus have reached it so far.
pub trait Signals {
    fn received(&self) -> usize;
}

impl Signals for AtomicUsize {
    fn received(&self) -> usize {
        self.load(Ordering::SeqCst)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cannot start `/bin/sh -c {command:?}`")]
    Spawn {
        command: String,
        #[source]
        source: io::Error,
    },
    #[error("cannot wait for the gate's command")]
    Wait(#[source] io::Error),
    /// Stopped by a signal to majordomus: not a verdict.
    #[error("interrupted: the gate's processes were stopped and no verdict was recorded")]
    Interrupted,
}

/// A program the shell is started through: `program ARGS... /bin/sh -c
/// COMMAND`. It must lead the process group it is started in, run the rest
/// of its command line in that group, and end as that ended (its exit
/// code, or 128 + the signal that ended it).
#[derive(Debug, Clone)]
pub struct Supervisor {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

/// Runs `command` through [`SHELL`] `-c` in `root`, stdin closed, stdout and
/// stderr inherited. Past `timeout` the whole process group is stopped and
/// the outcome says so; once `signals` counts one (a signal reached
/// majordomus) it is stopped too and no outcome is returned.
pub fn execute(
    root: &Path,
    command: &str,
    timeout: Option<Duration>,
    signals: &dyn Signals,
) -> Result<Outcome, RunError> {
    execute_under(None, root, command, timeout, signals)
}

/// [`execute`], the shell started through `supervisor` when there is one.
pub fn execute_under(
    supervisor: Option<&Supervisor>,
    root: &Path,
    command: &str,
    timeout: Option<Duration>,
    signals: &dyn Signals,
) -> Result<Outcome, RunError> {
    if signals.received() > 0 {
        return Err(RunError::Interrupted);
    }
    let started = Instant::now();
    let mut launch = match supervisor {
        Some(s) => {
            let mut c = Command::new(&s.program);
            c.args(&s.args).arg(SHELL);
            c
        }
        None => Command::new(SHELL),
    };
    for name in REPOSITORY_ENV {
        launch.env_remove(name);
    }
    let mut child = launch
        .arg("-c")
        .arg(command)
        .current_dir(root)
        .stdin(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|source| RunError::Spawn { command: command.to_string(), source })?;
    let deadline = timeout.map(|t| started + t);
    let mut pause = Duration::from_millis(5);
    loop {
        if let Some(status) = child.try_wait().map_err(RunError::Wait)? {
            return Ok(Outcome { exit: exit_code(status), duration: started.elapsed(), timed_out: false });
        }
        if signals.received() > 0 {
            stop(&mut child, signals).map_err(RunError::Wait)?;
            return Err(RunError::Interrupted);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            let status = stop(&mut child, signals).map_err(RunError::Wait)?;
            if signals.received() > 0 {
                return Err(RunError::Interrupted);
            }
            return Ok(Outcome { exit: exit_code(status), duration: started.elapsed(), timed_out: true });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}

/// Stops the child's whole process group: SIGTERM, a grace period (cut
/// short by any further signal to majordomus), then SIGKILL for whatever is
/// left of the group.
fn stop(child: &mut Child, signals: &dyn Signals) -> io::Result<ExitStatus> {
    let seen = signals.received();
    let group = i32::try_from(child.id()).ok().and_then(rustix::process::Pid::from_raw);
    let signal_group = |signal| {
        if let Some(group) = group {
            // The group may already be gone: nothing left to stop.
            let _ = rustix::process::kill_process_group(group, signal);
        }
    };
    signal_group(rustix::process::Signal::TERM);
    let until = Instant::now() + GRACE;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= until || signals.received() > seen {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    signal_group(rustix::process::Signal::KILL);
    match status {
        Some(s) => Ok(s),
        None => child.wait(),
    }
}

fn exit_code(status: ExitStatus) -> i32 {
    status.code().or_else(|| status.signal().map(|s| 128 + s)).unwrap_or(-1)
}

/// Appends the verdict to the ledger, with the task that ran it.
pub fn record(
    paths: &StatePaths,
    task: Option<String>,
    prepared: &Prepared,
    outcome: &Outcome,
) -> Result<Entry, ledger::LedgerError> {
    let entry = Entry {
        at: prepared.started_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        task,
        event: Event::GateRun {
            gate: prepared.id.clone(),
            exit: outcome.exit,
            duration_ms: u64::try_from(outcome.duration.as_millis()).unwrap_or(u64::MAX),
            commit: prepared.commit.clone(),
            inputs_hash: prepared.inputs.hash.clone(),
            timed_out: outcome.timed_out,
            environment: Some(prepared.environment.clone()),
        },
    };
    ledger::append(paths, &entry)?;
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64, nanos: i64) -> FileTime {
        FileTime { secs, nanos }
    }

    #[test]
    fn a_write_after_the_start_is_not_dated_back() {
        assert!(!dated_back(at(200, 5), at(200, 5), 100));
        // A save by rename: the rename a few milliseconds after the write.
        assert!(!dated_back(at(200, 999_000_000), at(201, 3_000_000), 100));
    }

    #[test]
    fn a_time_set_before_the_start_is_dated_back() {
        assert!(dated_back(at(99, 999_999_999), at(99, 999_999_999), 100));
    }

    #[test]
    fn a_time_set_back_after_the_start_is_dated_back_by_its_change_time() {
        // `touch -d @150` at 200: after the start, before a build at 170.
        assert!(dated_back(at(150, 0), at(200, 0), 100));
        assert!(dated_back(at(200, 0), at(200, 100_000_001), 100));
        assert!(!dated_back(at(200, 0), at(200, 100_000_000), 100));
    }

    fn run(command: &str, timeout: Option<Duration>) -> Outcome {
        let dir = tempfile::tempdir().expect("tempdir");
        execute(dir.path(), command, timeout, &AtomicUsize::new(0)).expect("ran")
    }

    #[test]
    fn the_exit_status_is_the_commands_and_it_runs_in_the_given_root() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("marker"), "").expect("write");
        let o = execute(dir.path(), "test -f marker && exit 3", None, &AtomicUsize::new(0)).expect("ran");
        assert_eq!((o.exit, o.timed_out, o.passed()), (3, false, false));
        assert!(run("true", None).passed());
    }

    #[test]
    fn stdin_is_closed() {
        assert!(run("test -z \"$(cat)\"", Some(Duration::from_secs(10))).passed());
    }

    #[test]
    fn a_time_limit_stops_the_whole_process_group_and_says_it_timed_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pidfile = dir.path().join("grandchild.pid");
        let command = format!("sleep 30 & echo $! > {}; wait", pidfile.display());
        let started = Instant::now();
        let o = execute(dir.path(), &command, Some(Duration::from_millis(300)), &AtomicUsize::new(0)).expect("ran");
        assert!(o.timed_out && !o.passed(), "{o:?}");
        assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
        let pid = std::fs::read_to_string(&pidfile).expect("pid").trim().to_string();
        std::thread::sleep(Duration::from_millis(100));
        let alive = std::fs::read_to_string(format!("/proc/{pid}/stat")).map(|s| !s.contains(") Z ")).unwrap_or(false);
        assert!(!alive, "the grandchild {pid} survived the time limit");
    }

    #[test]
    fn an_interruption_before_the_start_runs_nothing_and_gives_no_outcome() {
        let dir = tempfile::tempdir().expect("tempdir");
        let err = execute(dir.path(), "touch ran", None, &AtomicUsize::new(1)).expect_err("interrupted");
        assert!(matches!(err, RunError::Interrupted));
        assert!(!dir.path().join("ran").exists(), "the command ran after the signal");
    }

    /// Signals arriving while the command runs: the test sends the first;
    /// the second comes `second_after` polls later, in the grace period.
    struct Arriving {
        count: AtomicUsize,
        polls_after_first: AtomicUsize,
        second_after: usize,
    }

    impl Signals for Arriving {
        fn received(&self) -> usize {
            let n = self.count.load(Ordering::SeqCst);
            if n == 1 && self.polls_after_first.fetch_add(1, Ordering::SeqCst) >= self.second_after {
                self.count.store(2, Ordering::SeqCst);
                return 2;
            }
            n
        }
    }

    fn alive(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map(|s| !s.contains(") Z ")).unwrap_or(false)
    }

    #[test]
    fn a_second_signal_during_the_grace_kills_a_group_that_ignores_sigterm_at_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pidfile = dir.path().join("pids");
        // Both the shell and its child ignore SIGTERM: only SIGKILL ends them.
        let command =
            format!("trap '' TERM; sh -c \"trap '' TERM; sleep 30\" & echo $$ $! > {}; wait", pidfile.display());
        let signals = Arriving { count: AtomicUsize::new(0), polls_after_first: AtomicUsize::new(0), second_after: 3 };
        let started = Instant::now();
        let (result, took) = std::thread::scope(|s| {
            let run = s.spawn(|| execute(dir.path(), &command, None, &signals));
            while std::fs::read_to_string(&pidfile).map_or(true, |p| p.split_whitespace().count() < 2) {
                assert!(started.elapsed() < Duration::from_secs(20), "the command never started");
                std::thread::sleep(Duration::from_millis(10));
            }
            let first = Instant::now();
            signals.count.store(1, Ordering::SeqCst);
            let result = run.join().expect("thread");
            (result, first.elapsed())
        });
        assert!(matches!(result, Err(RunError::Interrupted)), "{result:?}");
        assert!(took < GRACE, "the second signal did not cut the grace short: {took:?}");
        let pids = std::fs::read_to_string(&pidfile).expect("pids");
        for pid in pids.split_whitespace() {
            let until = Instant::now() + Duration::from_secs(10);
            while alive(pid) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(10));
            }
            assert!(!alive(pid), "{pid} of the gate's group survived two signals");
        }
    }
}
