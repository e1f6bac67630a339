//! `majordomus issue`: the issues the task claimed and filed, kept in the ledger.

use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_records::issue::IssueRef;
use majordomus_records::ledger::Event;

use crate::out::outln;
use crate::render::escape_text;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Record the issues the task claims, releases and files.
///
/// An issue is a number (12, #12) in this repository, or owner/repo#12 in
/// another. A claimed issue is settled when released or closed; a filed one
/// when closed, or when it is a registered limitation (labelled limitation
/// and named by a marker in a file the register scans). Their states are
/// read from the forge observation (majordomus forge refresh).
#[derive(Debug, Args)]
pub struct IssueArgs {
    #[command(subcommand)]
    pub action: IssueAction,
}

#[derive(Debug, Subcommand)]
pub enum IssueAction {
    /// Claim an issue for the task: it holds `claims-released` until released or closed.
    Claim {
        /// N, #N or owner/repo#N.
        issue: String,
    },
    /// Release an issue the task claimed, without closing it.
    Release {
        /// N, #N or owner/repo#N.
        issue: String,
    },
    /// Record an issue the task filed: it holds `filings-closed` until closed
    /// or registered as a limitation.
    File {
        /// N, #N or owner/repo#N.
        issue: String,
    },
}

pub fn cmd_issue(cwd: &Path, args: IssueArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let parse = |text: &str| IssueRef::parse(text).map_err(CliError::Usage);
    let task = ws.active_task("an issue claimed or filed")?;
    // Held from the read to the append, so two claims at once of one issue
    // record it once.
    let _lock = ws.lock_ledger()?;
    let book = ws.book(&task)?;
    match args.action {
        IssueAction::Claim { issue } => {
            let issue = parse(&issue)?;
            let shown = escape_text(&issue.to_string()).into_owned();
            if book.claims.iter().any(|c| c.issue == issue && !c.released) {
                outln!("{shown} is already claimed by this task")?;
            } else {
                ws.append(&task, Event::Claim { issue: issue.to_ledger() })?;
                outln!("{shown} claimed")?;
            }
        }
        IssueAction::Release { issue } => {
            let issue = parse(&issue)?;
            let shown = escape_text(&issue.to_string()).into_owned();
            match book.claims.iter().find(|c| c.issue == issue) {
                Some(c) if !c.released => {
                    ws.append(&task, Event::Release { issue: issue.to_ledger() })?;
                    outln!("{shown} released")?;
                }
                Some(_) => outln!("{shown} was already released")?,
                None => {
                    return Err(CliError::Usage(format!(
                        "this task never claimed {shown}, so there is nothing to release"
                    )))
                }
            }
        }
        IssueAction::File { issue } => {
            let issue = parse(&issue)?;
            let shown = escape_text(&issue.to_string()).into_owned();
            if book.filed.iter().any(|f| f.issue == issue) {
                outln!("{shown} is already recorded as filed by this task")?;
            } else {
                ws.append(&task, Event::File { issue: issue.to_ledger() })?;
                outln!("{shown} recorded as filed by this task")?;
            }
        }
    }
    Ok(Exit::Ok)
}
