//! `majordomus gate`: run the repository's gates and record their verdicts,
//! or list them.

use std::io::Read;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use clap::{Args, Subcommand};
use majordomus_invariant::family::verification::judge::{
    and_list, elsewhere, gate_state, no_change_matches, rerun_from_the_start, Elsewhere, GateState,
};
use majordomus_invariant::family::verification::readings::{self as verification, RecordedRun};
use majordomus_invariant::runner::{self, RunError, Signals};
use majordomus_records::policy::{Gate, Policy};
use majordomus_records::task::TaskState;

use crate::out::{errln, Out};
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Run the repository's declared gates, or list them.
///
/// A verdict is a run majordomus made: `gate run` executes the command the
/// gate declares in .ai/repo/majordomus.toml and records its exit status in
/// the ledger against the hash of the inputs it read. There is no way to
/// record a verdict by typing an exit code.
#[derive(Debug, Args)]
pub struct GateArgs {
    #[command(subcommand)]
    pub command: GateCommand,
}

#[derive(Debug, Subcommand)]
pub enum GateCommand {
    Run(RunArgs),
    List(ListArgs),
}

/// Run a gate's command and record its verdict over the inputs it read.
///
/// The command runs through `/bin/sh -c` in the repository root with stdin
/// closed; its output streams through. The verdict is recorded with the
/// values of PATH, BASH_ENV, ENV and SHELL, which chose the programs the
/// command ran: a pass recorded under values other than the task's start
/// does not count for gates-green. The inputs are hashed before it
/// starts; past the gate's timeout_seconds its whole process group is
/// stopped and the run recorded as timed out. Exit 0 when the gate passed,
/// 10 when it failed (with --all: when any failed), 2 for a gate that is not
/// declared.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The gate to run, as declared under [gates] in .ai/repo/majordomus.toml.
    #[arg(value_name = "ID", required_unless_present = "all", conflicts_with = "all")]
    pub id: Option<String>,
    /// Run every gate the change since the start selects, in order, stopping at nothing.
    #[arg(long)]
    pub all: bool,
}

/// List the gates: whether the change selects each and why, and its latest
/// verdict with its age and whether its inputs changed since.
#[derive(Debug, Args)]
pub struct ListArgs {}

pub fn cmd_gate(cwd: &Path, args: GateArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    // The gates as the policy in force defines them: a gate the task
    // loosened runs and is judged as its start defined it, and says so.
    let force = ws.in_force(&TaskState::here(&ws.paths))?;
    let named: Option<&str> = match &args.command {
        GateCommand::Run(run) => run.id.as_deref(),
        GateCommand::List(_) => None,
    };
    for change in force.finding.iter().flat_map(|f| f.loosenings()) {
        let gate = change.entry.strip_prefix("[gates.").and_then(|e| e.split(']').next());
        if gate.is_some_and(|g| named.map_or(true, |n| n == g)) {
            errln!("majordomus: {}", change.sentence());
        }
    }
    let policy = force.policy;
    match args.command {
        GateCommand::Run(run) => cmd_run(&ws, &policy, run),
        GateCommand::List(_) => cmd_list(&ws, &policy),
    }
}

fn cmd_run(ws: &Workspace, policy: &Policy, args: RunArgs) -> Result<Exit, CliError> {
    // Caught from here on: a signal now stops whatever gate runs, and no
    // verdict is recorded.
    let interrupted = Interrupts::install()?;
    let task = TaskState::here(&ws.paths);
    let ids: Vec<String> = match args.id {
        Some(id) => {
            if !policy.gates.contains_key(&id) {
                return Err(CliError::Usage(unknown_gate(&id, policy)));
            }
            vec![id]
        }
        None => selected_for_all(ws, policy, &task)?,
    };
    // A verdict that could not be recorded is a run wasted: find out first.
    if !ids.is_empty() {
        majordomus_records::ledger::writable(&ws.paths).map_err(crate::workspace::ledger_error)?;
    }
    let task_id = task.record().map(|r| r.id.clone());
    let task = &task;
    let mut verdicts: Vec<(String, bool)> = Vec::new();
    for id in &ids {
        let Some(gate) = policy.gates.get(id) else { continue };
        match run_one(ws, id, gate, (task, task_id.clone()), &interrupted)? {
            Some(passed) => verdicts.push((id.clone(), passed)),
            None => {
                errln!("majordomus: gate {id} {}", RunError::Interrupted);
                return Ok(Exit::NotDone);
            }
        }
    }
    if ids.len() > 1 {
        let said: Vec<String> =
            verdicts.iter().map(|(id, ok)| format!("{id} {}", if *ok { "passed" } else { "failed" })).collect();
        errln!("majordomus: {} run: {}", plural(ids.len(), "gate"), said.join(", "));
    }
    Ok(if verdicts.iter().all(|(_, ok)| *ok) { Exit::Ok } else { Exit::NotDone })
}

/// The gates `--all` runs: those the change since the start selects and
/// those the task saw fail over the inputs as they are now (`gates-green`
/// counts both), or every declared gate when the change cannot be read.
fn selected_for_all(ws: &Workspace, policy: &Policy, task: &TaskState) -> Result<Vec<String>, CliError> {
    if policy.gates.is_empty() {
        errln!("majordomus: no gate is declared in .ai/repo/majordomus.toml: nothing to run");
        return Ok(Vec::new());
    }
    let (tree, changes) = verification::change_set(&ws.repo, task);
    let changes = match changes {
        Ok(c) => c,
        Err(e) => {
            errln!("majordomus: {}, so the change cannot be read and every declared gate runs", e.reason);
            return Ok(policy.gates.keys().cloned().collect());
        }
    };
    let mut ids = Vec::new();
    let gitlinks = verification::gitlinks(&ws.repo);
    let mut runs = None;
    for (id, gate) in &policy.gates {
        let matched = verification::matched(gate, &changes, &gitlinks)
            .map_err(|e| CliError::Usage(format!("gate {id}: {}", e.reason)))?;
        if gate.always || !matched.is_empty() {
            ids.push(id.clone());
            continue;
        }
        // One `check` counts though the change does not select it: the task
        // saw it fail over the inputs as they are now.
        let runs = runs.get_or_insert_with(|| verification::read_runs(&ws.paths));
        if verification::failing_unselected(&ws.repo, task, &tree, gate, id, runs).is_some() {
            errln!("majordomus: {id} is selected by no change since the start, but it failed over its inputs as they are now: it runs too");
            ids.push(id.clone());
        }
    }
    if ids.is_empty() {
        errln!(
            "majordomus: the change since the start ({}) selects no gate: nothing to run",
            plural(changes.changed.len(), "changed path")
        );
    }
    Ok(ids)
}

/// Runs one gate and records its verdict: `Some(true)` when it passed,
/// `None` when a signal interrupted it (nothing recorded).
fn run_one(
    ws: &Workspace,
    id: &str,
    gate: &Gate,
    (task, task_id): (&TaskState, Option<String>),
    interrupted: &Interrupts,
) -> Result<Option<bool>, CliError> {
    let prepared = runner::prepare(&ws.repo, id, gate, task)
        .map_err(|e| CliError::internal(format!("cannot read the inputs of the gate {id}; nothing was run"), e))?;
    let limit = gate.timeout_seconds.map(|s| format!(", at most {s} s")).unwrap_or_default();
    errln!(
        "majordomus: gate {id}: running `{}` over {} ({}){limit}",
        crate::render::escape_text(&gate.run),
        plural(prepared.inputs.files, "input file"),
        short(&prepared.inputs.hash)
    );
    if let Some(note) = environment_note(ws, id, &prepared) {
        errln!("majordomus: gate {id}: {note}");
    }
    // Inputs the run reads that the commit does not hold as they are: the
    // verdict is recorded over the disk, and gates-green will not find it
    // over the commit (test/cases/522, 523).
    let shown = |paths: Vec<&str>| paths.iter().map(|p| crate::render::escape_text(p).into_owned()).collect::<Vec<_>>();
    if !prepared.inputs.off_index.is_empty() {
        let named: Vec<String> = prepared
            .inputs
            .off_index
            .iter()
            .map(|f| match &f.filter {
                Some(driver) => format!("{} (under filter={driver}, a driver majordomus does not run)", f.path),
                None => f.path.clone(),
            })
            .collect();
        let paths = shown(named.iter().map(String::as_str).collect());
        errln!(
            "majordomus: gate {id}: the content on disk of {} is not the blob git records there, though git reads it \
             clean (as a clean filter given to one `git add` leaves it, or line ends a checkout would not write \
             back): the run is over the disk, not the commit; commit what is on disk with `git add --renormalize` \
             (line ends: say in .gitattributes how the file is kept), or put back what the commit holds",
            paths.join(", ")
        );
    }
    if !prepared.inputs.left.is_empty() {
        let paths = shown(prepared.inputs.left.iter().map(String::as_str).collect());
        errln!(
            "majordomus: gate {id}: the run reads {}, tracked at the start, which the commit no longer holds (left on \
             disk, ignored now): remove it, or commit it again",
            paths.join(", ")
        );
    }
    // Inputs the task changed whose modification time was set back, before
    // the start or before their last change: a build tool that compares
    // times runs what it built from their old content, so nothing is run
    // (test/cases/601, 609).
    if !prepared.set_back.is_empty() {
        let paths = shown(prepared.set_back.iter().map(String::as_str).collect());
        errln!(
            "majordomus: gate {id}: {} changed since the task's start but dated back ({}): its modification time \
             is older than the start, or than its own last change (the inode's change time, which only the kernel \
             sets): it was set back (`touch -d`, `touch -r`, `cp -p`, `tar x`, a file written earlier moved over \
             it or a symbolic link made to one), or renamed, linked or given another mode (`mv`, `ln`, `chmod`) after its last write. A build tool \
             that compares times (make, cargo) would run what it built from the old content; nothing was run. Date \
             it now and run again: touch -- {} && majordomus gate run {id}",
            plural(prepared.set_back.len(), "input file"),
            paths.join(", "),
            majordomus_invariant::prose::shell_words(&prepared.set_back)
        );
        return Ok(Some(false));
    }
    // The gate's own command is no reading of majordomus's: its bound is
    // the gate's `timeout_seconds`, not the watch's (`watch.rs`).
    crate::watch::disarm();
    let executed = runner::execute_under(
        supervisor().as_ref(),
        ws.repo.root(),
        &gate.run,
        gate.timeout_seconds.map(Duration::from_secs),
        interrupted,
    );
    crate::watch::arm(&format!("gate {id}'s reading of its inputs after the run"), ws.repo.root(), Exit::Usage);
    let outcome = match executed {
        Ok(o) => o,
        Err(RunError::Interrupted) => return Ok(None),
        Err(e) => return Err(CliError::internal(format!("cannot run the gate {id}"), e)),
    };
    // A signal that came as the command ended: no verdict either.
    if interrupted.received() > 0 {
        return Ok(None);
    }
    // An input that changed while the command ran: the hash taken before
    // says nothing of what it ran over, so no verdict.
    let moved = prepared.moved(&ws.repo);
    if !moved.is_empty() {
        let shown: Vec<String> = moved.iter().take(5).map(|p| crate::render::escape_text(p).into_owned()).collect();
        let more = if moved.len() > 5 { format!(" and {} more", moved.len() - 5) } else { String::new() };
        if prepared.inputs.rewritten_as_hashed(&ws.repo, &moved) {
            errln!("{}", rewritten_as_they_were(id, outcome.exit, &moved, &shown.join(", "), &more));
            return Ok(Some(false));
        }
        errln!(
            "majordomus: gate {id} ended (exit {}), but {} changed while it ran ({}{more}), so it covers no content \
             anyone can name and no verdict was recorded; run it again and leave its inputs alone until it ends",
            outcome.exit,
            plural(moved.len(), "input file"),
            shown.join(", ")
        );
        return Ok(Some(false));
    }
    runner::record(&ws.paths, task_id, &prepared, &outcome).map_err(|e| {
        let e = crate::workspace::ledger_error(e);
        match e {
            CliError::Usage(why) => {
                CliError::Usage(format!("the gate {id} ran but its verdict was not recorded: {why}"))
            }
            other => CliError::internal(format!("the gate {id} ran but its verdict could not be recorded"), other),
        }
    })?;
    let took = seconds(outcome.duration);
    let what = if outcome.timed_out {
        format!("timed out after {took} and was stopped (exit {})", outcome.exit)
    } else if outcome.passed() {
        format!("passed in {took}")
    } else {
        format!("failed in {took} (exit {})", outcome.exit)
    };
    errln!("majordomus: gate {id} {what}; verdict recorded over inputs {}", short(&prepared.inputs.hash));
    Ok(Some(outcome.passed()))
}

/// What to say of a run whose moved inputs all hold again what they were
/// hashed with: the command writes its own inputs again, byte for byte,
/// at every run, so "run it again" would never record a verdict
/// (test/cases/546). No verdict stands over them (a file swapped and put
/// back during the run looks the same), so the way out is a command that
/// leaves them alone: the project's script, a change the task may make,
/// or the gate's `run` or `inputs`, a loosening in force for this task
/// only as a colleague's commit pulled (test/cases/505).
fn rewritten_as_they_were(id: &str, exit: i32, moved: &[String], shown: &str, more: &str) -> String {
    format!(
        "majordomus: gate {id} ended (exit {exit}), but {} written again while it ran ({shown}{more}), each with the \
         bytes it was hashed with. Where the command itself writes them as they were (tests that regenerate their \
         golden files), it does so at every run, and running it again will not help. No verdict was recorded: a file \
         swapped and put back while the command runs looks the same afterwards. The way out is a command that \
         leaves its inputs alone: have the project's script write to a scratch file and replace an input only \
         where it differs (a change this task may make), or give the gate a `run` that works in a scratch copy, or \
         `inputs` that leave out what it writes: a change to .ai/repo/majordomus.toml is in force for this task \
         only as a commit of someone else's that arrives from the remote, where no commit this task made changes \
         the file (The policy in force); else end the task with `majordomus finish --outcome blocked`, saying \
         why, and have the gate fixed on the trunk",
        if moved.len() == 1 { "1 input file was".to_string() } else { format!("{} input files were", moved.len()) },
    )
}

/// What to say before a run whose environment is not the task's start's:
/// its verdict will be recorded, but `gates-green` will not count a pass.
fn environment_note(ws: &Workspace, id: &str, prepared: &runner::Prepared) -> Option<String> {
    let task = TaskState::here(&ws.paths);
    let start = task.record()?.snapshot.gate_environment.as_ref();
    let run = RecordedRun {
        at: String::new(),
        task: None,
        exit: 0,
        timed_out: false,
        duration_ms: 0,
        commit: None,
        inputs_hash: String::new(),
        environment: Some(prepared.environment.clone()),
    };
    match elsewhere(start, &run)? {
        Elsewhere::Differs(d) => {
            let named: Vec<&str> = d.iter().map(|d| d.name).collect();
            Some(format!(
                "its {} {} from the task's start, so a pass will not count for gates-green; to run it as at the start: {}",
                and_list(&named),
                if named.len() == 1 { "differs" } else { "differ" },
                rerun_from_the_start(&d.iter().collect::<Vec<_>>(), &[id])
            ))
        }
        Elsewhere::StartUnrecorded => Some(
            "the task record holds no start environment (an older majordomus started it), so gates-green cannot count a pass as the gate's".into(),
        ),
        Elsewhere::RunUnrecorded => None,
    }
}

fn cmd_list(ws: &Workspace, policy: &Policy) -> Result<Exit, CliError> {
    let mut out = Out::lock();
    if policy.gates.is_empty() {
        writeln!(out, "no gate is declared in .ai/repo/majordomus.toml")?;
        return Ok(Exit::Ok);
    }
    let task = TaskState::here(&ws.paths);
    let (tree, changes) = verification::change_set(&ws.repo, &task);
    let runs = verification::read_runs(&ws.paths);
    let gitlinks = verification::gitlinks(&ws.repo);
    let now = chrono::Utc::now();
    for (id, gate) in &policy.gates {
        let required = if gate.required { "required" } else { "optional" };
        writeln!(out, "{id} ({required}): {}", crate::render::escape_text(&gate.run))?;
        writeln!(out, "  {}", selection(gate, &changes, &gitlinks))?;
        let verdict = match (&tree, &runs) {
            (Err(e), _) | (_, Err(e)) => Err(e.clone()),
            (Ok(tree), Ok(runs)) => {
                let m = changes.as_ref().ok().and_then(|c| verification::matched(gate, c, &gitlinks).ok());
                let m = m.unwrap_or_default();
                let reach = majordomus_readings::inputs::Reach { changed: &m, as_on_disk: false };
                verification::inputs_now(&ws.repo, tree, gate, reach).map(|inputs| {
                    let mut found = verification::runs_of(runs, id, &inputs.hash, inputs.files);
                    found.unseen = inputs.absent.into_iter().filter(|p| m.contains(p)).collect();
                    found.off_record = inputs.off_record;
                    found.left = inputs.left;
                    if found.current.is_none() {
                        found.off_index = majordomus_readings::inputs::recorded::off_index(&ws.repo, tree, &m);
                    }
                    found
                })
            }
        };
        let start = task.record().and_then(|r| r.snapshot.gate_environment.as_ref());
        writeln!(out, "  verdict: {}", verdict_line(&gate_state(&verdict, start), now))?;
    }
    Ok(Exit::Ok)
}

fn selection(
    gate: &Gate,
    changes: &Result<majordomus_readings::changes::ChangeSet, majordomus_readings::Unread>,
    gitlinks: &std::collections::BTreeSet<String>,
) -> String {
    let inputs = if gate.inputs.is_empty() { "no inputs".to_string() } else { gate.inputs.join(", ") };
    match changes {
        _ if gate.always => "selected: it is marked always".to_string(),
        Err(e) => format!("selection unknown: {} (inputs: {inputs})", e.reason),
        Ok(c) => match verification::matched(gate, c, gitlinks) {
            Err(e) => format!("selection unknown: {}", e.reason),
            Ok(_) if c.changed.is_empty() => "not selected: nothing changed since the start".to_string(),
            Ok(_) if gate.inputs.is_empty() => {
                "not selected: it declares no inputs, so no change selects it (mark it always to run it every time)"
                    .to_string()
            }
            Ok(m) if m.is_empty() => {
                format!("not selected: {} {inputs}", no_change_matches(c.changed.len()))
            }
            Ok(m) => {
                let shown: Vec<&str> = m.iter().take(3).map(String::as_str).collect();
                let more = if m.len() > 3 { format!(" and {} more", m.len() - 3) } else { String::new() };
                format!("selected: {}{more} changed (inputs: {inputs})", crate::render::escape_text(&shown.join(", ")))
            }
        },
    }
}

fn verdict_line(state: &GateState<'_>, now: chrono::DateTime<chrono::Utc>) -> String {
    let when = |run: &RecordedRun| {
        let age = chrono::DateTime::parse_from_rfc3339(&run.at).map(|t| age(now - t.with_timezone(&chrono::Utc)));
        age.unwrap_or_else(|_| format!("at {}", run.at))
    };
    match state {
        GateState::Passing(run) => {
            format!("passed {} (in {}), over its inputs as they are now", when(run), seconds_ms(run.duration_ms))
        }
        GateState::Failed(run) if run.timed_out => format!("timed out {}, over its inputs as they are now", when(run)),
        GateState::Failed(run) => format!("failed {} (exit {}), over its inputs as they are now", when(run), run.exit),
        GateState::NeverReported => "never run".to_string(),
        GateState::Stale { last, now: hash } => format!(
            "{} {}, stale: its inputs changed since ({} then, {} now)",
            if last.passed() { "passed" } else { "failed" },
            when(last),
            short(&last.inputs_hash),
            short(hash)
        ),
        GateState::Elsewhere { run, why: Elsewhere::Differs(d) } => {
            let named: Vec<&str> = d.iter().map(|d| d.name).collect();
            format!(
                "passed {}, over its inputs as they are now, but not counted: its {} differed from the task's start",
                when(run),
                and_list(&named)
            )
        }
        GateState::Elsewhere { run, why: Elsewhere::RunUnrecorded } => format!(
            "passed {}, over its inputs as they are now, but not counted: the run was recorded without its environment",
            when(run)
        ),
        GateState::Elsewhere { run, why: Elsewhere::StartUnrecorded } => format!(
            "passed {}, over its inputs as they are now; the task record holds no start environment to compare the run's with",
            when(run)
        ),
        GateState::Unseen { run, paths } => format!(
            "passed {}, over its inputs as they are now, but not counted: {} changed since the start lay outside the working tree it ran in (a sparse checkout's, or a submodule not checked out)",
            when(run),
            paths.join(", ")
        ),
        GateState::OffRecord { run, files } => format!(
            "passed {}, over its inputs as they are now, but not counted: core.fileMode is false, and the executable bit on disk of {} is not the mode git records",
            when(run),
            files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ")
        ),
        GateState::NotCommitted { files, .. } => format!(
            "not counted: the content on disk of {} is not the blob git records there, though git reads it clean; a run here is not over the commit",
            files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ")
        ),
        GateState::LeftOnDisk { run, paths } => format!(
            "passed {}, over its inputs as they are now, but not counted: {} tracked at the start, the commit no longer holds, still on disk",
            when(run),
            paths.join(", ")
        ),
        GateState::Unread(e) => format!("unknown: {}", e.reason),
    }
}

/// `5 seconds ago`, `3 minutes ago`, `2 hours ago`, `4 days ago`.
fn age(d: chrono::TimeDelta) -> String {
    let s = d.num_seconds().max(0);
    let (n, unit) = match s {
        0..=59 => (s, "second"),
        60..=3599 => (s / 60, "minute"),
        3600..=86399 => (s / 3600, "hour"),
        _ => (s / 86400, "day"),
    };
    format!("{} ago", plural(usize::try_from(n).unwrap_or(0), unit))
}

fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

fn seconds_ms(ms: u64) -> String {
    seconds(Duration::from_millis(ms))
}

fn short(hash: &str) -> &str {
    &hash[..12.min(hash.len())]
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn unknown_gate(id: &str, policy: &Policy) -> String {
    if policy.gates.is_empty() {
        format!("no gate named {id:?} is declared: .ai/repo/majordomus.toml declares no gate")
    } else {
        let ids: Vec<&str> = policy.gates.keys().map(String::as_str).collect();
        format!("no gate named {id:?} is declared in .ai/repo/majordomus.toml; declared: {}", ids.join(", "))
    }
}

/// The gate's shell runs under this binary's `supervise` mode, which stops
/// the gate's group when this process dies, even of a SIGKILL that no
/// handler sees (commands/supervise.rs). `/proc/self/exe` is this binary
/// even after a rebuild replaced the file. Linux only: elsewhere there is
/// no parent-death signal, and the shell runs directly.
fn supervisor() -> Option<runner::Supervisor> {
    cfg!(target_os = "linux").then(|| runner::Supervisor {
        program: "/proc/self/exe".into(),
        args: vec!["supervise".into(), "--parent".into(), std::process::id().to_string().into(), "--".into()],
    })
}

/// The signals that would end majordomus while a gate runs, counted. The
/// gate runs in a process group of its own (so a time limit can stop all of
/// it), which keeps the terminal's Ctrl-C from reaching it: majordomus
/// catches the signal, stops the group itself and records nothing. A second
/// signal does not end majordomus at once (that would leave the group
/// running): it cuts the grace period short, the group is killed, and then
/// majordomus exits ([`runner::execute`]).
///
/// Each handler writes a byte to a socket ([`signal_hook::low_level::pipe`]);
/// the count is the bytes read back.
#[derive(Debug)]
struct Interrupts {
    read: UnixStream,
    seen: AtomicUsize,
}

/// Every signal whose default is to end the process and that can be caught.
const ENDING: [i32; 11] = {
    use signal_hook::consts::*;
    [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ]
};

impl Interrupts {
    fn install() -> Result<Self, CliError> {
        let failed = |e| CliError::internal("cannot install the signal handlers", e);
        let (read, write) = UnixStream::pair().map_err(failed)?;
        read.set_nonblocking(true).map_err(failed)?;
        for signal in ENDING {
            signal_hook::low_level::pipe::register(signal, write.try_clone().map_err(failed)?).map_err(failed)?;
        }
        Ok(Self { read, seen: AtomicUsize::new(0) })
    }
}

impl Signals for Interrupts {
    fn received(&self) -> usize {
        let mut buf = [0u8; 64];
        loop {
            match (&self.read).read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    self.seen.fetch_add(n, Ordering::SeqCst);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        self.seen.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_are_said_in_the_largest_whole_unit() {
        assert_eq!(age(chrono::TimeDelta::seconds(1)), "1 second ago");
        assert_eq!(age(chrono::TimeDelta::seconds(150)), "2 minutes ago");
        assert_eq!(age(chrono::TimeDelta::hours(5)), "5 hours ago");
        assert_eq!(age(chrono::TimeDelta::days(3)), "3 days ago");
    }
}
