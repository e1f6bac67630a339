//! `majordomus sweep`: what tasks whose owner is gone left behind.

use std::path::Path;

use clap::Args;
use majordomus_invariant::sweep::{self, Finding, Left};
use majordomus_readings::Reading;
use serde_json::json;

use crate::out::Out;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Find the tasks whose owner is gone, across every worktree, and what each left.
///
/// A session killed, closed or out of context never runs `finish`, so it
/// cannot say what it left. sweep looks at the task record of the main
/// worktree and of every linked one: a record whose owner (the process that
/// ran `start`) no longer runs, or that names none, is a task left behind,
/// and sweep prints where it started and what it left: uncommitted and
/// untracked paths, unpushed commits, stashes and branches made since its
/// start, and the done line a check there gives. It changes nothing. Exit
/// 0 when no task was left behind, 10 when one was.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Print the findings as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn cmd_sweep(cwd: &Path, args: SweepArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let seen = sweep::sweep(&ws.repo).map_err(|e| CliError::internal("cannot list the worktrees", e))?;
    let gone = seen.iter().filter(|w| w.finding.left_behind()).count();
    let mut out = Out::lock();
    let written = if args.json {
        let value = json!({
            "worktrees": seen.iter().map(|w| {
                let mut v = json!({ "name": w.name, "path": w.path.display().to_string() });
                let (state, extra) = finding_json(&w.finding);
                v["state"] = state.into();
                if let (Some(v), serde_json::Value::Object(extra)) = (v.as_object_mut(), extra) {
                    v.extend(extra);
                }
                v
            }).collect::<Vec<_>>(),
            "gone": gone,
        });
        let text =
            serde_json::to_string_pretty(&value).map_err(|e| CliError::internal("cannot encode the sweep", e))?;
        writeln!(out, "{text}")
    } else {
        let mut text: String = seen.iter().map(|w| finding_text(&w.name, &w.path, &w.finding)).collect();
        text.push_str(&format!("sweep: {} looked at, {gone} left behind\n", count(seen.len(), "worktree")));
        out.write_all(text.as_bytes())
    };
    // The exit is the verdict, whether or not the reader stayed to the end.
    crate::out::keeping(if gone == 0 { Exit::Ok } else { Exit::NotDone }, written.and_then(|()| out.flush()))
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn list(r: &Reading<Vec<String>>) -> String {
    match r {
        Ok(v) if v.is_empty() => "none".into(),
        Ok(v) => v.join(", "),
        Err(e) => format!("unknown ({})", e.reason),
    }
}

fn short(ids: &Reading<Vec<String>>) -> Reading<Vec<String>> {
    ids.clone().map(|v| v.into_iter().map(|c| c.chars().take(12).collect()).collect())
}

fn finding_text(name: &str, path: &Path, f: &Finding) -> String {
    let at = format!("{name} ({})", path.display());
    match f {
        Finding::NoTask => format!("no task     {at}\n"),
        Finding::Unreadable(why) => format!("unreadable  {at}: {why}\n"),
        Finding::BadRecord(why) => format!("bad record  {at}: {why}\n"),
        Finding::Live { record, owner } => format!(
            "live        {at}: {:?} ({}), its owner pid {}{} still runs\n",
            record.task,
            record.id,
            owner.pid,
            session_text(record)
        ),
        Finding::Unsure { record, why } => format!("maybe live  {at}: {:?} ({}): {why}\n", record.task, record.id),
        Finding::Gone { record, why, left } => {
            let start = match (&record.branch, &record.head) {
                (Some(b), Some(h)) => format!("{b} at {}", &h[..12.min(h.len())]),
                (None, Some(h)) => format!("detached at {}", &h[..12.min(h.len())]),
                (Some(b), None) => format!("{b}, unborn"),
                (None, None) => "an unborn HEAD".into(),
            };
            let mut s = format!("left behind {at}: {:?} ({})\n", record.task, record.id);
            s.push_str(&format!("    why:          {why}{}\n", session_text(record)));
            s.push_str(&format!("    started:      {} on {start}\n", record.started_at));
            s.push_str(&left_text(left));
            s
        }
        Finding::Orphaned(o) => {
            let mut s = format!("left behind {at}: {}\n", crate::render::escape_text(&o.problem()));
            s.push_str(&format!("    remedy:       {}\n", crate::render::escape_text(&o.remedy())));
            s
        }
    }
}

/// ` (Claude Code session ID)`: the agent session the task was started in.
fn session_text(record: &majordomus_records::TaskRecord) -> String {
    match record.owner.as_ref().and_then(|o| o.session.as_ref()) {
        Some(s) => {
            let host = match s.host.as_str() {
                "claude" => "Claude Code",
                "codex" => "Codex",
                other => other,
            };
            format!(" ({host} session {})", crate::render::escape_text(&s.id))
        }
        None => String::new(),
    }
}

fn left_text(left: &Left) -> String {
    let mut s = String::new();
    s.push_str(&format!("    uncommitted:  {}\n", list(&left.uncommitted)));
    s.push_str(&format!("    untracked:    {}\n", list(&left.untracked)));
    s.push_str(&format!("    unpushed:     {}\n", list(&short(&left.unpushed))));
    s.push_str(&format!("    stashes:      {}\n", list(&left.stashes)));
    s.push_str(&format!("    branches:     {}\n", list(&left.branches)));
    let open: Vec<String> =
        left.answers.iter().filter(|a| !a.status.is_settled()).map(|a| format!("{}={}", a.id, a.status)).collect();
    s.push_str(&format!(
        "    check there:  {}\n",
        if open.is_empty() { "complete".to_string() } else { open.join(" ") }
    ));
    if let Some(note) = &left.policy_note {
        s.push_str(&format!("    note:         {note}\n"));
    }
    s
}

fn reading_json(r: &Reading<Vec<String>>) -> serde_json::Value {
    match r {
        Ok(v) => json!(v),
        Err(e) => json!({ "unread": e.reason }),
    }
}

fn finding_json(f: &Finding) -> (&'static str, serde_json::Value) {
    match f {
        Finding::NoTask => ("no-task", json!({})),
        Finding::Unreadable(why) => ("unreadable", json!({ "why": why })),
        Finding::BadRecord(why) => ("bad-record", json!({ "why": why })),
        Finding::Live { record, owner } => ("live", json!({ "task": record, "owner": owner })),
        Finding::Unsure { record, why } => ("maybe-live", json!({ "task": record, "why": why })),
        Finding::Gone { record, why, left } => (
            "gone",
            json!({
                "task": record,
                "why": why,
                "left": {
                    "uncommitted": reading_json(&left.uncommitted),
                    "untracked": reading_json(&left.untracked),
                    "unpushed": reading_json(&left.unpushed),
                    "stashes": reading_json(&left.stashes),
                    "branches": reading_json(&left.branches),
                },
                "open": left.answers.iter().filter(|a| !a.status.is_settled()).map(|a| json!({ "id": a.id, "status": a.status, "evidence": a.evidence })).collect::<Vec<_>>(),
                "policy_note": left.policy_note,
            }),
        ),
        Finding::Orphaned(o) => (
            "orphaned",
            json!({ "task": o.record, "why": o.problem(), "remedy": o.remedy(), "submodule": o.submodule.is_some() }),
        ),
    }
}
