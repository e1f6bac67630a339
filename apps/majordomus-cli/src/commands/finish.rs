//! `majordomus finish`: end the task and archive its record.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use majordomus_records::task::{TaskRecord, TaskState};

use crate::evaluate::evaluate;
use crate::out::{errln, outln};
use crate::workspace::Workspace;
use crate::{render, CliError, Exit};

/// End the task, archiving its record under the common git directory's majordomus/archive/.
///
/// `--outcome completed` is refused (exit 10, nothing written) unless the
/// done invariant is complete; the other outcomes say honestly how the
/// task ended and always archive.
#[derive(Debug, Args)]
pub struct FinishArgs {
    /// How the task ended.
    #[arg(long, value_enum)]
    pub outcome: Outcome,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Outcome {
    Completed,
    Partial,
    Blocked,
    Failed,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Completed => "completed",
            Outcome::Partial => "partial",
            Outcome::Blocked => "blocked",
            Outcome::Failed => "failed",
        }
    }
}

pub fn cmd_finish(cwd: &Path, args: FinishArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let record = match TaskState::here(&ws.paths) {
        TaskState::Active(r) => r,
        TaskState::None => return Err(CliError::Usage("no task is active here: nothing to finish".into())),
        TaskState::Unreadable(reason) if args.outcome == Outcome::Completed => {
            return Err(CliError::Usage(format!(
                "the task record cannot be read ({reason}), so the task cannot be shown complete: repair {}, \
                 or finish it with another --outcome (failed, partial, blocked), which archives what is there",
                ws.paths.task().display()
            )))
        }
        TaskState::Unreadable(reason) => return finish_unreadable(&ws, args.outcome, &reason),
    };
    let doc = evaluate(&ws)?;
    if args.outcome == Outcome::Completed && !doc.complete {
        crate::out::err_text(&render::check_text(&doc, render::use_color(crate::out::stderr_is_terminal())));
        errln!(
            "majordomus: finish --outcome completed refused: the done invariant is not complete (nothing was written)"
        );
        return Ok(Exit::NotDone);
    }
    // Archived and removed under the ledger's lock, which `scope add` takes
    // to rewrite the record: what is archived is the record as it stands,
    // and no writer puts it back once it is removed.
    let _lock = ws.lock_ledger()?;
    let record = match TaskState::here(&ws.paths) {
        TaskState::Active(now) if now.id == record.id => now,
        _ => return Err(CliError::Usage(
            "the task record changed while finish measured it (another finish or start ran here): nothing was archived"
                .into(),
        )),
    };
    let now = chrono::Utc::now();
    // What the task declared, kept with it: a start continuing it puts back
    // what the ledger lost meanwhile (test/cases/341).
    let declared = majordomus_records::ledger::read_here(&ws.paths)
        .map(|entries| majordomus_invariant::restart::declarations(entries, &record.id))
        .unwrap_or_default();
    let archived = serde_json::json!({
        "outcome": args.outcome.as_str(),
        "ledger": declared,
        "finished_at": now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "done_line": doc.done_line(),
        "score": doc.score,
        // The working tree it ended in: the next start here names what it left open.
        "root": ws.repo.root(),
        // Which worktree it was, which a move keeps: the next start there continues it.
        "worktree": majordomus_invariant::restart::worktree_key(ws.repo.git_dir(), ws.repo.common_dir()),
        "record": record,
    });
    let mut bytes =
        serde_json::to_vec_pretty(&archived).map_err(|e| CliError::internal("cannot encode the archive", e))?;
    bytes.push(b'\n');
    let target = archive(&ws, &record.id, now, &bytes)?;
    crate::workspace::remove_state(&ws.paths, &ws.paths.task())?;
    forget_copy(&ws)?;
    forget_notes(&ws);
    outln!("finished {:?} ({}) as {}; {}", record.task, record.id, args.outcome.as_str(), doc.done_line())?;
    outln!("archived to {}", target.display())?;
    Ok(Exit::Ok)
}

/// Ends a task whose record cannot be read (not `completed`: nothing about
/// it can be shown done): archives what the file held (its first 64 KiB, as
/// text) with the reason, then removes it.
fn finish_unreadable(ws: &Workspace, outcome: Outcome, reason: &str) -> Result<Exit, CliError> {
    use std::io::Read;
    let _lock = ws.lock_ledger()?;
    // What the record held, or, where it is gone, what its copy in the git
    // directory holds.
    let mut held = Vec::new();
    let copy = ws.paths.kept_copy().filter(|_| !ws.paths.task().exists());
    if let Ok(f) = majordomus_records::regular::open(&copy.unwrap_or_else(|| ws.paths.task())) {
        let _ = f.take(64 << 10).read_to_end(&mut held);
    }
    let now = chrono::Utc::now();
    // A record that is gone left its copy, a whole record: archived as one,
    // so the next start here continues the task it ended. So does one
    // broken or changed by hand (`echo x > task.json`, then this, is no way
    // to end a task with nothing left to continue: test/cases/338).
    let kept = ws
        .paths
        .kept_copy()
        .and_then(|c| TaskRecord::load(&c).ok().flatten())
        .or_else(|| serde_json::from_slice::<TaskRecord>(&held).ok());
    let declared = match (&kept, majordomus_records::ledger::read_here(&ws.paths)) {
        (Some(r), Ok(entries)) => majordomus_invariant::restart::declarations(entries, &r.id),
        _ => Vec::new(),
    };
    let archived = serde_json::json!({
        "ledger": declared,
        "outcome": outcome.as_str(),
        "finished_at": now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "done_line": "done: not measured (the task record could not be read)",
        "root": ws.repo.root(),
        // Which worktree it was, which a move keeps: the next start there continues it.
        "worktree": majordomus_invariant::restart::worktree_key(ws.repo.git_dir(), ws.repo.common_dir()),
        "record": kept,
        "unreadable": reason,
        "held": String::from_utf8_lossy(&held),
    });
    let mut bytes =
        serde_json::to_vec_pretty(&archived).map_err(|e| CliError::internal("cannot encode the archive", e))?;
    bytes.push(b'\n');
    let target = archive(ws, "", now, &bytes)?;
    crate::workspace::remove_state(&ws.paths, &ws.paths.task())?;
    forget_copy(ws)?;
    forget_notes(ws);
    outln!("finished a task whose record could not be read ({}) as {}", render::escape_text(reason), outcome.as_str())?;
    outln!("archived to {}", target.display())?;
    Ok(Exit::Ok)
}

/// Writes the archived record under `archive/`, named by the record's id
/// when that is a plain file name (as `start` makes them), else by the time
/// it finished; never over an archive already there (`-2`, `-3`, ... after
/// the name instead). A record's id is whatever the file says: it names no
/// path of its own.
fn archive(ws: &Workspace, id: &str, now: chrono::DateTime<chrono::Utc>, bytes: &[u8]) -> Result<PathBuf, CliError> {
    let plain = !id.is_empty()
        && id.len() <= 128
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && !id.starts_with('.');
    let stem = if plain { id.to_string() } else { format!("task-{}", now.format("%Y%m%dT%H%M%SZ")) };
    for n in 1..=1000 {
        let name = if n == 1 { format!("{stem}.json") } else { format!("{stem}-{n}.json") };
        // In the common git directory: the archive outlives this worktree.
        let common = ws.repo.common_dir();
        let target = majordomus_records::paths::shared_archive_dir(common).join(name);
        if majordomus_records::atomic::create_atomic(common, &target, bytes).map_err(crate::workspace::place_error)? {
            return Ok(target);
        }
    }
    Err(CliError::internal(
        "cannot archive the task record",
        std::io::Error::other(format!("1,000 archives named {stem} already exist")),
    ))
}

/// The task is over: its record's copy in the git directory goes too.
/// Removes the notes of this task the repositories around it keep
/// (`orphans::note_around`); one that cannot be removed is said, not fatal:
/// the task is finished, and a note whose root holds no task says nothing.
fn forget_notes(ws: &Workspace) {
    for failed in majordomus_invariant::orphans::unnote_around(ws.repo.root()) {
        crate::out::errln!("majordomus: the note of this task around it was not removed ({failed})");
    }
}

fn forget_copy(ws: &Workspace) -> Result<(), CliError> {
    TaskRecord::forget_copy(&ws.paths)
        .map_err(|e| CliError::internal("the task is finished, but its record's copy cannot be removed", e))
}
