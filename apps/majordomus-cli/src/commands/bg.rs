//! `majordomus bg`: background work the task registered, kept in the ledger.

use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_invariant::family::bookkeeping::background::{self, describe_lasting, MARKER_VARIABLE};
use majordomus_invariant::family::bookkeeping::readings::{ProcessSeen, TaskBook};
use majordomus_readings::process;
use majordomus_records::ledger::{Entry, Event};
use majordomus_records::task::TaskRecord;

use crate::out::{errln, outln};
use crate::render::escape_text;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Register background work, so that closing the task while it runs is seen.
///
/// The process's start time is recorded with its pid, so a pid the system
/// later gives to another process is not mistaken for it. A registered
/// process still running, or a process it started (seen below it by `bg
/// add`, `check` or `hook stop` while it ran; with `bg run`, any process
/// carrying its marker in its environment), holds `no-background-work` owed; `bg forget PID`
/// withdraws a registration made by mistake or of work that has ended (one
/// still running only with `--why`, and it stays named). Pid 1 and the processes
/// majordomus runs under (the agent's own shell) are refused: they never end
/// while the task does.
#[derive(Debug, Args)]
pub struct BgArgs {
    #[command(subcommand)]
    pub action: BgAction,
}

#[derive(Debug, Subcommand)]
pub enum BgAction {
    /// Register process PID as the task's background work.
    Add {
        /// The process id.
        pid: u32,
        /// What the process does, for the evidence.
        #[arg(long, value_name = "TEXT")]
        what: Option<String>,
    },
    /// Start COMMAND in the background and register it: every process it
    /// starts, however (nohup, setsid, a double fork), inherits
    /// MAJORDOMUS_BG=MARKER in its environment and counts as this work while
    /// it runs. The command's output goes where this command's goes:
    /// redirect it (`majordomus bg run -- make serve > serve.log 2>&1`).
    Run {
        /// What the work does, for the evidence.
        #[arg(long, value_name = "TEXT")]
        what: Option<String>,
        /// The command and its arguments.
        #[arg(required = true, trailing_var_arg = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Withdraw the registration of process PID: it no longer counts.
    ///
    /// For a registration made by mistake, or work that has ended. A process
    /// that still runs is refused (exit 2) unless --why says why it is not
    /// the task's to end: then it stays named, and no-background-work is
    /// exempt for it, showing the reason, while it runs.
    Forget {
        /// The process id, as `bg list` prints it.
        pid: u32,
        /// Why a process that still runs is not the task's to end (shown with the answer).
        #[arg(long, value_name = "REASON")]
        why: Option<String>,
    },
    /// List the background work the task registered, and whether each still runs.
    List,
}

pub fn cmd_bg(cwd: &Path, args: BgArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let task = ws.active_task("background work")?;
    match args.action {
        BgAction::Add { pid, what } => {
            refuse_own_ancestors(pid)?;
            let start_time = match process::stat(pid) {
                Ok(Some(s)) if !matches!(s.state, 'Z' | 'X' | 'x') => Some(s.start_time),
                Ok(_) => {
                    return Err(CliError::Usage(format!(
                        "no process {pid} is running, so there is nothing to register"
                    )))
                }
                Err(e) => {
                    errln!("majordomus: {}; pid {pid} is registered without its start time", e.reason);
                    None
                }
            };
            let what = what.map(|w| w.trim().to_string()).filter(|w| !w.is_empty());
            ws.append(&task, Event::Background { pid, start_time, what: what.clone(), marker: None })?;
            match what {
                Some(w) => outln!("background work registered: pid {pid} ({})", escape_text(&w))?,
                None => outln!("background work registered: pid {pid}")?,
            }
            // What it started already counts from now on (test/cases/644).
            look_and_record(&ws, &task)?;
        }
        BgAction::Run { what, command } => {
            let what = what.map(|w| w.trim().to_string()).filter(|w| !w.is_empty());
            let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
            let marker = format!("{}-{nanos}", std::process::id());
            // The ledger must take the registration before anything starts.
            majordomus_records::ledger::writable(&ws.paths)
                .map_err(|e| CliError::Usage(majordomus_records::task::error_chain(&e)))?;
            let child = std::process::Command::new(&command[0])
                .args(&command[1..])
                .env(MARKER_VARIABLE, &marker)
                .stdin(std::process::Stdio::null())
                .spawn()
                .map_err(|e| CliError::Usage(format!("could not start {}: {e}; nothing was registered", command[0])))?;
            let pid = child.id();
            let start_time = process::stat(pid).ok().flatten().map(|s| s.start_time);
            let what = what.or_else(|| Some(majordomus_records::text::clamp(&command.join(" "), 200).into_owned()));
            let event = Event::Background { pid, start_time, what: what.clone(), marker: Some(marker.clone()) };
            if let Err(e) = ws.append(&task, event) {
                let _ = std::process::Command::new("kill").arg(pid.to_string()).status();
                return Err(e);
            }
            outln!(
                "background work started and registered: pid {pid} ({}), every process it starts marked {MARKER_VARIABLE}={marker}",
                escape_text(what.as_deref().unwrap_or(""))
            )?;
        }
        BgAction::Forget { pid, why } => {
            let why = why.map(|w| w.trim().to_string());
            if why.as_deref() == Some("") {
                return Err(CliError::Usage("--why is empty: say why the process is not the task's to end".into()));
            }
            let _lock = ws.lock_ledger()?;
            let book = ws.book(&task)?;
            let seen = look(&ws, &task, &book);
            let runs = seen
                .iter()
                .filter(|s| s.registered.pid == pid)
                .map(ProcessSeen::runs)
                .find(|r| !matches!(r, Ok(false)));
            if !book.background.iter().any(|b| b.pid == pid) {
                let known: Vec<String> = book.background.iter().map(|b| b.pid.to_string()).collect();
                return Err(CliError::Usage(if known.is_empty() {
                    format!("pid {pid} is not registered: the task registered no background work")
                } else {
                    format!("pid {pid} is not registered; the task's background work is pid {}", known.join(", "))
                }));
            }
            match (runs, why) {
                (None, _) => {
                    ws.append(&task, Event::BackgroundForget { pid, why: None })?;
                    outln!("background work forgotten: pid {pid} no longer counts")?;
                }
                (Some(_), Some(why)) => {
                    ws.append(&task, Event::BackgroundForget { pid, why: Some(why.clone()) })?;
                    outln!(
                        "background work forgotten while it runs: pid {pid} stays named, exempt while it runs ({})",
                        escape_text(&why)
                    )?;
                }
                (Some(runs), None) => {
                    // What it started is ended with it (test/cases/644).
                    let lasting: Vec<_> =
                        seen.iter().filter(|s| s.registered.pid == pid).flat_map(|s| s.lasting.iter()).collect();
                    let kill: Vec<String> =
                        std::iter::once(pid).chain(lasting.iter().map(|c| c.pid)).map(|p| p.to_string()).collect();
                    let state = match (runs, lasting.is_empty()) {
                        (Err(e), _) => format!("whether pid {pid} still runs cannot be read ({})", e.reason),
                        (Ok(_), true) => format!("pid {pid} still runs"),
                        (Ok(_), false) => format!(
                            "pid {pid} or what it started still runs ({})",
                            lasting
                                .iter()
                                .map(|c| format!("pid {} ({})", c.pid, c.name))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    };
                    return Err(CliError::Usage(format!(
                        "{state}: forgetting it would let no-background-work pass over work that is not over; \
                         end it (kill {}), or say why it is not the task's to end: majordomus bg forget {pid} --why REASON; nothing was recorded",
                        kill.join(" ")
                    )));
                }
            }
        }
        BgAction::List => {
            let book = ws.book(&task)?;
            if book.background.is_empty() {
                outln!("no background work registered for {:?}", task.task)?;
            }
            for s in look(&ws, &task, &book) {
                let b = &s.registered;
                let state = match s.runs() {
                    Ok(true) => "running".to_string(),
                    Ok(false) => "ended".to_string(),
                    Err(e) => format!("unknown ({})", e.reason),
                };
                let below = match s.lasting.is_empty() {
                    true => String::new(),
                    false => format!(" [still running below it: {}]", describe_lasting(&s.lasting)),
                };
                outln!(
                    "pid {:>7}  {:<8} {}{}",
                    b.pid,
                    state,
                    escape_text(b.what.as_deref().unwrap_or("")),
                    escape_text(&below)
                )?;
            }
        }
    }
    Ok(Exit::Ok)
}

/// Reads whether the task's background work runs, what it started
/// included, and records in the ledger the processes newly seen below it.
fn look(ws: &Workspace, task: &TaskRecord, book: &TaskBook) -> Vec<ProcessSeen> {
    let (seen, new) = background::look(&book.background);
    let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let entries: Vec<Entry> =
        new.into_iter().map(|event| Entry { at: at.clone(), task: Some(task.id.clone()), event }).collect();
    if let Err(e) = majordomus_records::ledger::append_all(&ws.paths, &entries) {
        errln!("majordomus: could not record the processes seen below background work: {e}");
    }
    seen
}

/// [`look`] at the ledger as it is now.
fn look_and_record(ws: &Workspace, task: &TaskRecord) -> Result<(), CliError> {
    let book = ws.book(task)?;
    look(ws, task, &book);
    Ok(())
}

/// Pid 1 and the processes majordomus itself runs under never end before
/// the task does: registering one would hold `no-background-work` owed for
/// good. Where the ancestors cannot be read, only pid 1 is refused.
fn refuse_own_ancestors(pid: u32) -> Result<(), CliError> {
    if pid == 1 {
        return Err(CliError::Usage(
            "pid 1 is the system's init process, not background work: it never ends; nothing was registered".into(),
        ));
    }
    if pid == std::process::id() {
        return Err(CliError::Usage(format!("pid {pid} is this majordomus itself; nothing was registered")));
    }
    if let Ok(up) = process::ancestors() {
        if up.contains(&pid) {
            return Err(CliError::Usage(format!(
                "pid {pid} is a process majordomus runs under (the shell or agent that called it), not background work: it would never end before the task does; nothing was registered"
            )));
        }
    }
    Ok(())
}
