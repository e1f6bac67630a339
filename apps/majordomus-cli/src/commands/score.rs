//! `majordomus score`: the 0-10 completion number and the caps holding it down.

use std::path::Path;

use clap::Args;
use majordomus_invariant::Document;
use majordomus_records::task::TaskState;

use crate::evaluate::{evaluate, write_document};
use crate::out::{self, Out};
use crate::workspace::Workspace;
use crate::{render, CliError, Exit};

/// Print the completion score, 0 to 10, and every cap that holds it down.
///
/// The score is 10 when every question of the done invariant is pass or
/// exempt; otherwise the lowest cap among those that are not (an unknown
/// caps like any other). It is computed from the very answers `check`
/// gives, so the two never disagree, and each cap prints its own evidence
/// and remedy. Failures that were fixed never deduct. Exit 0 at a measured
/// 10, 10 otherwise: --cached measures nothing, so it never exits 0.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Print the score and its caps as JSON.
    #[arg(long)]
    pub json: bool,
    /// Read the last recorded score without measuring anything (for a
    /// status line), with its age, and whether HEAD, the index or the refs
    /// moved since, which makes it stale. The working tree's files are not
    /// compared, so this exits 10 whatever the score: only a measured 10
    /// exits 0.
    #[arg(long)]
    pub cached: bool,
}

pub fn cmd_score(cwd: &Path, args: ScoreArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let color = render::use_color(out::stdout_is_terminal());
    let mut stdout = Out::lock();
    // The exit is the verdict: a reader that stops early changes nothing of
    // it (out::keeping).
    if args.cached {
        let Some(doc) = read_cached(&ws)? else {
            let text = "no score recorded here yet: run majordomus score (or majordomus check)";
            let written = if args.json {
                writeln!(stdout, "{}", serde_json::json!({ "score": null, "cached": true, "why": text }))
            } else {
                writeln!(stdout, "{text}")
            };
            return out::keeping(Exit::NotDone, written);
        };
        let stale = staleness(&ws, &doc);
        let age = chrono::DateTime::parse_from_rfc3339(&doc.generated_at)
            .ok()
            .map(|t| (chrono::Utc::now() - t.with_timezone(&chrono::Utc)).num_seconds().max(0));
        let written = if args.json {
            let mut value = render::score_json(&doc);
            value["cached"] = true.into();
            value["age_seconds"] = age.into();
            value["stale"] = (!stale.is_empty()).into();
            value["moved"] = stale.clone().into();
            print_json(&mut stdout, &value)
        } else {
            stdout.write_all(render::cached_score_text(&doc, age, &stale, color).as_bytes())
        };
        // A cached number vouches for nothing it did not compare: the
        // working tree's files were never looked at, so exit 0 (a measured
        // 10) is never given here.
        return out::keeping(Exit::NotDone, written.and_then(|()| stdout.flush()));
    }
    let doc = evaluate(&ws)?;
    write_document(&ws, &doc)?;
    let written = if args.json {
        print_json(&mut stdout, &render::score_json(&doc))
    } else {
        stdout.write_all(render::score_text(&doc, color).as_bytes())
    };
    out::keeping(if doc.score == 10 { Exit::Ok } else { Exit::NotDone }, written.and_then(|()| stdout.flush()))
}

fn read_cached(ws: &Workspace) -> Result<Option<Document>, CliError> {
    let path = ws.paths.completion();
    let bytes = match majordomus_records::regular::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::internal(format!("cannot read {}", path.display()), e)),
    };
    Document::parse(&bytes).map(Some).map_err(|e| {
        CliError::Usage(format!(
            "{} is not a completion document ({e}); run majordomus score to rewrite it",
            path.display()
        ))
    })
}

/// What moved since the document was measured; empty when it is current.
fn staleness(ws: &Workspace, doc: &Document) -> Vec<String> {
    let mut moved: Vec<String> = match &doc.fingerprint {
        Some(then) => then.moved_in(&ws.repo).into_iter().map(str::to_string).collect(),
        None => vec!["the document carries no fingerprint to compare".to_string()],
    };
    let task_then = doc.task.as_ref().and_then(|t| t.text_field("id"));
    let task_now = match TaskState::here(&ws.paths) {
        TaskState::Active(r) => Some(r.id),
        _ => None,
    };
    if task_then != task_now {
        moved.push("the task".to_string());
    }
    moved
}

/// The score as pretty JSON, one document a line ending.
fn print_json(out: &mut Out, value: &serde_json::Value) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| CliError::internal("cannot encode the score", e))?;
    writeln!(out, "{text}")?;
    Ok(())
}
