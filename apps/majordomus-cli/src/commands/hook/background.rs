//! Background work the host reports at a stop (Claude Code's
//! `background_tasks`): which of it still runs, the pause it makes of the
//! stop, and its record in the ledger, which `no-background-work` judges
//! (see [`super::stop`]).

use serde_json::Value;

use majordomus_records::ledger::{self, AgentTask, Entry, Event};
use majordomus_records::task::TaskRecord;

use super::protocol::StopPayload;
use crate::workspace::Workspace;

/// Statuses a host gives background work that has ended. Anything else,
/// a missing status included, is taken as still running: work nobody can
/// say has ended is not counted as ended.
const ENDED: [&str; 10] =
    ["completed", "complete", "done", "failed", "error", "killed", "cancelled", "canceled", "stopped", "exited"];

/// The most background tasks one report records: the ledger's bound.
const MAX_REPORTED_TASKS: usize = 1000;

/// The background tasks still running, as the ledger records them.
pub fn running_tasks(tasks: &[Value]) -> Vec<AgentTask> {
    tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            let status = t.get("status").and_then(Value::as_str).unwrap_or("running").to_ascii_lowercase();
            !ENDED.contains(&status.as_str())
        })
        .take(MAX_REPORTED_TASKS)
        .map(|(i, t)| {
            // What the host said, bounded as the ledger bounds it.
            let text = |key: &str| {
                t.get(key)
                    .and_then(Value::as_str)
                    .map(|v| majordomus_records::text::clamp(v, majordomus_records::text::MAX_FIELD - 32).into_owned())
            };
            AgentTask {
                id: text("id").or_else(|| text("task_id")).unwrap_or_else(|| format!("#{}", i + 1)),
                description: text("description").or_else(|| text("command")).or_else(|| text("name")),
            }
        })
        .collect()
}

/// The background work still running besides the agent that is stopping:
/// Claude Code lists a subagent running in the background among the
/// session's background tasks, itself included when its own `SubagentStop`
/// comes (the same id as its `agent_id`), and a stop is no pause for the
/// work of the agent that is stopping.
pub fn others_running(tasks: &[Value], payload: &StopPayload) -> Vec<AgentTask> {
    let stopping = payload.agent_id.as_deref().filter(|_| payload.hook_event_name.as_deref() == Some("SubagentStop"));
    running_tasks(tasks).into_iter().filter(|t| Some(t.id.as_str()) != stopping).collect()
}

/// The message of a stop let through as a pause while background work runs.
pub fn pause(running: &[AgentTask]) -> String {
    let named: Vec<String> = running
        .iter()
        .map(|t| match &t.description {
            Some(d) => format!("{} ({})", crate::render::escape_text(&t.id), crate::render::escape_text(d)),
            None => crate::render::escape_text(&t.id).into_owned(),
        })
        .collect();
    format!(
        "majordomus let this stop through as a pause: background work still runs ({}). \
         The session is woken when it ends; the done invariant is judged at the stop that comes when nothing runs.",
        named.join(", ")
    )
}

/// Appends what the agent reported running: the latest such entry is what
/// `no-background-work` judges, so an empty list is recorded too, unless
/// the report in force already says nothing runs. Then the entry would
/// change nothing the question reads but its `agent_reported_at` (which
/// stays the time the agent first reported nothing running), and a Claude
/// Code stop, which reports its background work every time, would flush
/// the ledger and its mark to the disk at every stop for it.
pub fn record_background(ws: &Workspace, record: &TaskRecord, running: &[AgentTask]) -> Result<(), String> {
    if running.is_empty() && ledger::latest_agent_report(&ws.paths, &record.id).is_some_and(|r| r.is_empty()) {
        return Ok(());
    }
    let entry =
        Entry { at: now(), task: Some(record.id.clone()), event: Event::AgentBackground { tasks: running.to_vec() } };
    match ledger::append(&ws.paths, &entry) {
        // A ledger that lost lines is not written to; the questions that
        // read it say so, and the stop is judged on that.
        Err(ledger::LedgerError::Lost { .. }) => Ok(()),
        other => other.map_err(|e| majordomus_records::task::error_chain(&e)),
    }
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_background_work_still_running_is_recorded() {
        let tasks = vec![
            json!({"id": "b1", "type": "shell", "status": "running", "description": "cargo test"}),
            json!({"id": "b2", "type": "shell", "status": "completed", "description": "ls"}),
            json!({"task_id": "a3", "command": "npm run dev"}),
            json!({"status": "killed"}),
        ];
        assert_eq!(
            running_tasks(&tasks),
            [
                AgentTask { id: "b1".into(), description: Some("cargo test".into()) },
                AgentTask { id: "a3".into(), description: Some("npm run dev".into()) },
            ]
        );
    }

    #[test]
    fn a_subagent_stopping_is_not_background_work_at_its_own_stop() {
        let tasks = vec![
            json!({"id": "a16c", "type": "subagent", "status": "running", "description": "its part"}),
            json!({"id": "a27d", "type": "subagent", "status": "running", "description": "a sibling"}),
        ];
        let stop = |event: &str| StopPayload {
            hook_event_name: Some(event.into()),
            agent_id: Some("a16c".into()),
            ..StopPayload::default()
        };
        let ids = |p: &StopPayload| others_running(&tasks, p).into_iter().map(|t| t.id).collect::<Vec<_>>();
        assert_eq!(ids(&stop("SubagentStop")), ["a27d"]);
        assert_eq!(ids(&stop("Stop")), ["a16c", "a27d"], "the main agent's stop counts every one");
    }

    #[test]
    fn a_pause_names_the_running_work_with_its_control_characters_escaped() {
        let running = [
            AgentTask { id: "b1".into(), description: Some("cargo test\ndone: complete".into()) },
            AgentTask { id: "b2".into(), description: None },
        ];
        let m = pause(&running);
        assert!(m.contains("(b1 (cargo test\\ndone: complete), b2)"), "{m}");
        assert!(!m.contains('\n'), "{m}");
    }
}
