//! `majordomus bg`: background work the task registered, kept in the ledger.

use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_readings::process;
use majordomus_records::ledger::Event;

use crate::out::{errln, outln};
use crate::render::escape_text;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Register background work, so that closing the task while it runs is seen.
///
/// The process's start time is recorded with its pid, so a pid the system
/// later gives to another process is not mistaken for it. A registered
/// process still running holds `no-background-work` owed; `bg forget PID`
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
            ws.append(&task, Event::Background { pid, start_time, what: what.clone() })?;
            match what {
                Some(w) => outln!("background work registered: pid {pid} ({})", escape_text(&w))?,
                None => outln!("background work registered: pid {pid}")?,
            }
        }
        BgAction::Forget { pid, why } => {
            let why = why.map(|w| w.trim().to_string());
            if why.as_deref() == Some("") {
                return Err(CliError::Usage("--why is empty: say why the process is not the task's to end".into()));
            }
            let _lock = ws.lock_ledger()?;
            let book = ws.book(&task)?;
            let runs = book
                .background
                .iter()
                .filter(|b| b.pid == pid)
                .map(|b| process::is_running(b.pid, b.start_time))
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
                    let state = match runs {
                        Err(e) => format!("whether pid {pid} still runs cannot be read ({})", e.reason),
                        Ok(_) => format!("pid {pid} still runs"),
                    };
                    return Err(CliError::Usage(format!(
                        "{state}: forgetting it would let no-background-work pass over work that is not over; \
                         end it (kill {pid}), or say why it is not the task's to end: majordomus bg forget {pid} --why REASON; nothing was recorded"
                    )));
                }
            }
        }
        BgAction::List => {
            let book = ws.book(&task)?;
            if book.background.is_empty() {
                outln!("no background work registered for {:?}", task.task)?;
            }
            for b in &book.background {
                let state = match process::is_running(b.pid, b.start_time) {
                    Ok(true) => "running".to_string(),
                    Ok(false) => "ended".to_string(),
                    Err(e) => format!("unknown ({})", e.reason),
                };
                outln!("pid {:>7}  {:<8} {}", b.pid, state, escape_text(b.what.as_deref().unwrap_or("")))?;
            }
        }
    }
    Ok(Exit::Ok)
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
