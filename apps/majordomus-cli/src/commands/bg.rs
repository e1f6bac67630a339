//! `majordomus bg`: background work the task registered, kept in the ledger.

use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_readings::process;
use majordomus_records::ledger::Event;

use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Register background work, so that closing the task while it runs is seen.
///
/// The process's start time is recorded with its pid, so a pid the system
/// later gives to another process is not mistaken for it. A registered
/// process still running holds `no-background-work` owed.
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
    /// List the background work the task registered, and whether each still runs.
    List,
}

pub fn cmd_bg(cwd: &Path, args: BgArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let task = ws.active_task("background work")?;
    match args.action {
        BgAction::Add { pid, what } => {
            let start_time = match process::stat(pid) {
                Ok(Some(s)) if !matches!(s.state, 'Z' | 'X' | 'x') => Some(s.start_time),
                Ok(_) => {
                    return Err(CliError::Usage(format!(
                        "no process {pid} is running, so there is nothing to register"
                    )))
                }
                Err(e) => {
                    eprintln!("majordomus: {}; pid {pid} is registered without its start time", e.reason);
                    None
                }
            };
            let what = what.map(|w| w.trim().to_string()).filter(|w| !w.is_empty());
            ws.append(&task, Event::Background { pid, start_time, what: what.clone() })?;
            match what {
                Some(w) => println!("background work registered: pid {pid} ({w})"),
                None => println!("background work registered: pid {pid}"),
            }
        }
        BgAction::List => {
            let book = ws.book(&task)?;
            if book.background.is_empty() {
                println!("no background work registered for {:?}", task.task);
            }
            for b in &book.background {
                let state = match process::is_running(b.pid, b.start_time) {
                    Ok(true) => "running".to_string(),
                    Ok(false) => "ended".to_string(),
                    Err(e) => format!("unknown ({})", e.reason),
                };
                println!("pid {:>7}  {:<8} {}", b.pid, state, b.what.as_deref().unwrap_or(""));
            }
        }
    }
    Ok(Exit::Ok)
}
