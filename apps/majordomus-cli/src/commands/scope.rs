//! `majordomus scope`: grow the task's scope in place.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use majordomus_invariant::family::scope::judge::in_scope;
use majordomus_records::task::ScopeAdded;

use super::start::normalise_scope_as;
use crate::out::outln;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// The task's scope: the paths it may change (`start --scope`).
#[derive(Debug, Args)]
pub struct ScopeArgs {
    #[command(subcommand)]
    pub action: ScopeAction,
}

#[derive(Debug, Subcommand)]
pub enum ScopeAction {
    /// Add paths to the active task's scope, recorded with when.
    ///
    /// A path found out of scope that belongs to the task is settled here,
    /// never by finishing and starting again (a restart would make the
    /// task's own edits inherited). Paths are directories or files relative
    /// to where you are, as with `start --scope`; a glob is refused (exit
    /// 2). The scope only grows: nothing can be taken out of it.
    Add {
        /// The paths to add.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
}

pub fn cmd_scope(cwd: &Path, args: ScopeArgs) -> Result<Exit, CliError> {
    let ScopeAction::Add { paths } = args.action;
    let ws = Workspace::open(cwd)?;
    let here = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let prefix = here.strip_prefix(ws.repo.root()).unwrap_or(Path::new("")).to_path_buf();
    // Every path checked before anything is written: one refused, none added.
    let wanted = paths.iter().map(|p| normalise_scope_as(&prefix, p, "scope add")).collect::<Result<Vec<_>, _>>()?;
    ws.active_task("a scope")?;
    // Read, changed and written under the ledger's lock, as every writer of
    // the task's records (todo, issue, bg, finish's removal): two `scope add`
    // at once each keep the other's paths, and none writes back a record
    // that finish removed meanwhile.
    let _lock = ws.lock_ledger()?;
    let mut task = ws.active_task("a scope")?;
    if task.scope.is_empty() {
        outln!("the task {:?} declared no scope, so every path is in it already; nothing was recorded", task.task)?;
        return Ok(Exit::Ok);
    }
    let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let mut added = Vec::new();
    for path in wanted {
        if in_scope(&path, &task.scope) {
            outln!("already in the scope: {path}")?;
            continue;
        }
        task.scope.push(path.clone());
        task.scope_added.push(ScopeAdded { path: path.clone(), at: at.clone() });
        added.push(path);
    }
    if added.is_empty() {
        return Ok(Exit::Ok);
    }
    let mut bytes =
        serde_json::to_vec_pretty(&task).map_err(|e| CliError::internal("cannot encode the task record", e))?;
    bytes.push(b'\n');
    ws.write_state(&ws.paths.task(), &bytes)?;
    crate::commands::start::keep_copy(&ws, &bytes)?;
    outln!("scope of {:?} is now {} (added {})", task.task, task.scope.join(", "), added.join(", "))?;
    Ok(Exit::Ok)
}
