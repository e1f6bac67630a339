//! `majordomus hook session-start`: what an agent is told as its session
//! begins.
//!
//! A stop hook that first speaks at the end of the work speaks late: the
//! agent learns what it is held to only when it wants to stop. The host's
//! `SessionStart` event (Claude Code's and Codex's) lets majordomus say it
//! at the beginning instead, as `additionalContext` the host puts before
//! the agent: the active task, its done line and score, and the first open
//! questions with their remedies; or, with no task, one line saying how to
//! start one.
//!
//! With `[hook] auto_start = true` in the policy, a session that starts
//! afresh (source `startup`) with no task active records one itself,
//! titled from the session, so that nothing the session does escapes a
//! start snapshot. A session resumed, compacted, cleared or forked
//! continues work already under way: it never starts a task.
//!
//! Like the stop hook, this one always exits 0 with output the host
//! accepts: a failure of majordomus is said in `systemMessage`, and the
//! session starts as it would have without the hook.

use std::path::Path;
use std::time::Instant;

use clap::Args;

use majordomus_invariant::Deadline;
use majordomus_invariant::{score, Document};
use majordomus_records::task::{TaskRecord, TaskState};

use super::locate::{self, Place, Starts};
use super::protocol::{emit, guarded, inject_fault, read_payload, render_session_start, SessionStartPayload};
use super::Agent;
use crate::evaluate::{evaluate_within, write_document};
use crate::render::escape_text;
use crate::workspace::{Opened, Workspace};
use crate::Exit;

/// Answer a coding agent's session-start hook with what the session is
/// held to.
///
/// Reads the host's SessionStart hook input (JSON) on standard input and
/// answers with additionalContext for the agent: each active task the
/// session concerns, its done line and score, and its first open
/// questions; or, with no task, how to start one. With [hook] auto_start =
/// true in the policy, a session starting afresh (source startup) records a
/// task when none is active. Always exits 0 with valid output.
#[derive(Debug, Args)]
pub struct SessionStartArgs {
    /// The host calling the hook.
    #[arg(long, value_enum, default_value_t = Agent::Claude)]
    pub agent: Agent,
    /// The time budget of the measurement, in milliseconds (default: the
    /// policy's [hook] budget_ms, 20000).
    #[arg(long, value_name = "MS")]
    pub budget_ms: Option<u64>,
}

/// How many open questions the context names; `majordomus check` has the rest.
const FIRST_OPEN: usize = 3;

/// The answer: the context for the agent, a message for the person.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Told {
    pub context: Option<String>,
    pub message: Option<String>,
}

pub fn cmd_hook_session_start(explicit_dir: Option<&Path>, args: SessionStartArgs) -> Exit {
    let started = Instant::now();
    let told = match guarded(|| answer(explicit_dir, &args, started)) {
        Ok(Ok(t)) => t,
        Ok(Err(failure)) => Told { context: None, message: Some(failed(&failure)) },
        Err(panic) => Told { context: None, message: Some(crashed(&panic)) },
    };
    emit(&render_session_start(told.context.as_deref(), told.message.as_deref()));
    Exit::Ok
}

/// Answers a `hook session-start` whose command line could not be parsed.
pub fn answer_unparsed(error: &str) -> Exit {
    let first = error.lines().next().unwrap_or(error).trim_start_matches("error: ");
    let message = format!("majordomus hook session-start could not read its command line: {first}");
    emit(&render_session_start(None, Some(&message)));
    Exit::Ok
}

fn failed(failure: &str) -> String {
    format!("majordomus could not tell this session what it is held to: {failure}")
}

fn crashed(panic: &str) -> String {
    format!("majordomus crashed while preparing this session's context: {panic}")
}

fn answer(explicit_dir: Option<&Path>, args: &SessionStartArgs, started: Instant) -> Result<Told, String> {
    let payload: SessionStartPayload = read_payload("a session-start hook")?;
    inject_fault();
    match payload.hook_event_name.as_deref() {
        None | Some("SessionStart") => {}
        Some(other) => {
            return Ok(Told {
                context: None,
                message: Some(format!(
                    "majordomus hook session-start answers the SessionStart event; it was run for {other}, so it said nothing"
                )),
            })
        }
    }
    let located = locate::places_opened(&Starts::of_this_process(explicit_dir, payload.cwd.as_deref()));
    let Some(first) = located.first().map(|l| l.place.clone()) else { return Ok(Told::default()) };
    let mut paragraphs = Vec::new();
    let mut messages = Vec::new();
    for locate::Located { place, repo } in located {
        let place = &place;
        // The repository the walk opened there, else opened now.
        let opened = match repo {
            Some(repo) => Ok(Opened::Readable(Workspace::of(repo))),
            None => Workspace::open_for_check(&place.from),
        };
        match opened {
            Ok(Opened::Readable(ws)) => match TaskState::here(&ws.paths) {
                TaskState::None => {}
                TaskState::Active(record) => match measured(&ws, args, started) {
                    Ok(doc) => paragraphs.push(held_to(place, &record, &doc, None)),
                    Err(e) => messages.push(failed(&e)),
                },
                TaskState::Unreadable(reason) => paragraphs.push(format!(
                    "majordomus: a task record{} cannot be read ({reason}); the stop hook cannot judge this work until it is repaired or removed.",
                    at(place)
                )),
            },
            Ok(Opened::Unreadable { paths, reason }) => {
                if !matches!(TaskState::here(&paths), TaskState::None) {
                    paragraphs.push(format!(
                        "majordomus: a task is active{}, but the repository cannot be read ({reason}), so nothing is measured.",
                        at(place)
                    ));
                }
            }
            Err(_) => {}
        }
    }
    if paragraphs.is_empty() {
        let (context, message) = no_task(&first, args, &payload, started);
        paragraphs.push(context);
        messages.extend(message);
    }
    Ok(Told { context: Some(paragraphs.join("\n\n")), message: (!messages.is_empty()).then(|| messages.join("\n")) })
}

/// With no task active anywhere the session concerns: a task started by
/// the policy's `auto_start`, or one line on how to start one; and what to
/// tell the person when the start failed.
fn no_task(
    place: &Place,
    args: &SessionStartArgs,
    payload: &SessionStartPayload,
    started: Instant,
) -> (String, Option<String>) {
    let how = format!(
        "majordomus: no task is active{}, so nothing this session does is measured against a start. \
         Before changing anything, record one: majordomus start \"what the work is\" --scope DIR",
        at(place)
    );
    let ws = match Workspace::open(&place.from) {
        Ok(ws) => ws,
        Err(_) => return (how, None),
    };
    let auto = match ws.policy() {
        Ok(p) => p.hook.auto_start,
        Err(e) => {
            return (how, Some(format!("majordomus could not read the policy, so it started no task: {}", e.chain())))
        }
    };
    if !auto || payload.source.as_deref() != Some("startup") {
        return (how, None);
    }
    let title = title(args.agent, payload);
    match super::super::start::begin(&ws, &title, Vec::new(), Vec::new(), None) {
        Ok(begun) => match measured(&ws, args, started) {
            Ok(doc) => {
                (held_to(place, &begun.record, &doc, Some("started for this session by [hook] auto_start")), None)
            }
            Err(e) => (
                format!(
                    "majordomus started the task {:?} ({}) for this session ([hook] auto_start).",
                    begun.record.task, begun.record.id
                ),
                Some(failed(&e)),
            ),
        },
        Err(e) => (how, Some(format!("majordomus could not start a task for this session: {}", e.chain()))),
    }
}

/// The title of a task started for a session: the host's title for it,
/// else the host and the session's id.
pub fn title(agent: Agent, payload: &SessionStartPayload) -> String {
    if let Some(t) = payload.session_title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        return t.to_string();
    }
    let host = match agent {
        Agent::Claude => "Claude Code",
        Agent::Codex => "Codex",
    };
    match payload.session_id.as_deref().filter(|s| !s.is_empty()) {
        Some(id) => format!("{host} session {}", id.chars().take(8).collect::<String>()),
        None => format!("{host} session"),
    }
}

fn measured(ws: &Workspace, args: &SessionStartArgs, started: Instant) -> Result<Document, String> {
    let policy = ws.policy().map_err(|e| e.chain())?;
    let budget_ms = args.budget_ms.unwrap_or(policy.hook.budget_ms);
    let doc = evaluate_within(ws, Deadline::after(started, budget_ms)).map_err(|e| e.chain())?;
    write_document(ws, &doc).map_err(|e| e.chain())?;
    Ok(doc)
}

/// " in /p (how)" for a place other than where the agent works.
fn at(place: &Place) -> String {
    place.named().map(|p| format!(" in {p}")).unwrap_or_default()
}

/// What the session is held to: the task, its done line and score, the
/// first open questions, most important first (the order the stop hook
/// names them in).
pub fn held_to(place: &Place, record: &TaskRecord, doc: &Document, how: Option<&str>) -> String {
    let how = how.map(|h| format!(" {h}")).unwrap_or_default();
    let mut out = format!(
        "majordomus: the task {:?} ({}) is active{}, started {}{how}. \
         A stop is blocked while its done invariant is open; `majordomus check` shows it whole.\n",
        escape_text(&record.task),
        record.id,
        at(place),
        record.started_at
    );
    out.push_str(&format!("score {}/10; {}\n", doc.score, doc.done_line()));
    let (_, caps) = score::score(&doc.questions, &Default::default());
    let caps = if doc.caps.is_empty() { caps } else { doc.caps.clone() };
    if !caps.is_empty() {
        out.push_str("Open, most important first:\n");
    }
    for (i, cap) in caps.iter().take(FIRST_OPEN).enumerate() {
        out.push_str(&format!(
            "{}. {} ({}): {} {}: {}\n",
            i + 1,
            cap.id,
            cap.status,
            escape_text(&cap.evidence),
            match cap.remedy_kind {
                majordomus_invariant::RemedyKind::Command => "Remedy",
                majordomus_invariant::RemedyKind::Advice => "Advice",
            },
            escape_text(&cap.remedy)
        ));
    }
    if caps.len() > FIRST_OPEN {
        out.push_str(&format!("{} more: majordomus check lists every one.\n", caps.len() - FIRST_OPEN));
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::hook::protocol::codex_accepts_session_start;

    fn payload(title: Option<&str>, id: Option<&str>) -> SessionStartPayload {
        SessionStartPayload {
            session_title: title.map(Into::into),
            session_id: id.map(Into::into),
            ..SessionStartPayload::default()
        }
    }

    #[test]
    fn a_task_started_for_a_session_is_titled_from_it() {
        assert_eq!(title(Agent::Claude, &payload(Some("  Fix the parser "), Some("6f1c2a9e-3b7d"))), "Fix the parser");
        assert_eq!(title(Agent::Claude, &payload(Some(" "), Some("6f1c2a9e-3b7d"))), "Claude Code session 6f1c2a9e");
        assert_eq!(title(Agent::Codex, &payload(None, Some("019a4c2e-7b1f"))), "Codex session 019a4c2e");
        assert_eq!(title(Agent::Codex, &payload(None, None)), "Codex session");
    }

    #[test]
    fn every_answer_of_its_own_is_one_codex_accepts() {
        for (context, message) in [
            (None, Some(failed("the policy is invalid"))),
            (None, Some(crashed("boom"))),
            (Some("majordomus: no task is active".to_string()), None),
            (Some("c".to_string()), Some("m".to_string())),
            (None, None),
        ] {
            let out = render_session_start(context.as_deref(), message.as_deref());
            assert_eq!(codex_accepts_session_start(&out), Ok(()), "{out}");
        }
    }
}
