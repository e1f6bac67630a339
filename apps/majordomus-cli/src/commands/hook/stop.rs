//! `majordomus hook stop`: the coding agent's stop hook.
//!
//! The moment an agent wants to stop is the moment it is most ready to round
//! up, so that is where the done invariant is asked. The host (Claude Code's
//! `Stop` and `SubagentStop`, Codex's `Stop`) pipes its hook input in; the
//! answer goes out in the host's protocol:
//!
//! - no active task here (or no repository): the stop is allowed silently,
//!   nothing printed for Claude Code, `{}` for Codex;
//! - the invariant complete: allowed silently, and the block count reset;
//! - not complete: `{"decision": "block", "reason": ...}`, the reason written
//!   for the agent: the done line, then each open question's evidence and
//!   remedy, most important first (lowest cap, then invariant order).
//!
//! Two things end a loop of blocks, because a block the agent cannot settle
//! spends its turns one by one: past `[hook] block_limit` consecutive blocks
//! for the task, or when the host says it is already continuing because of a
//! stop hook (`stop_hook_active`) and nothing changed since the last block
//! (same done line, same HEAD and index, same content at the paths the
//! invariant found dirty or untracked), the stop is let through with a
//! `systemMessage` naming what is still owed.
//!
//! A task record that exists but cannot be read is no way out: the stop is
//! blocked, naming the record and its remedy, up to the block limit.
//!
//! The hook always exits 0 with valid output. A failure of majordomus
//! itself, a panic included, lets the stop through and says why in
//! `systemMessage`: a host must never take majordomus's own trouble for a
//! verdict on the agent's work. Measurement runs within a time budget well
//! under the host's timeout; a question the budget cut off is `unknown`, and
//! open like any other: the stop is blocked, the reason saying the budget
//! ran out before those were measured and that `majordomus check` measures
//! them fully. The block limit ends that loop like any other.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde::Deserialize;
use serde_json::{json, Value};

use majordomus_invariant::{score, Answer, Deadline, Document};
use majordomus_records::hook::{HookState, HOOK_SCHEMA};
use majordomus_records::ledger::{self, AgentTask, Entry, Event};
use majordomus_records::task::{TaskRecord, TaskState};

use super::Agent;
use crate::evaluate::{evaluate_within, write_document};
use crate::workspace::Workspace;
use crate::Exit;

/// Answer a coding agent's stop hook: block the stop while the done
/// invariant is not complete.
///
/// Reads the host's Stop or SubagentStop hook input (JSON) on standard
/// input and answers on standard output in the host's protocol: nothing
/// (Claude Code) or {} (Codex) lets the stop through; {"decision": "block",
/// "reason": ...} keeps the agent working, the reason naming what is still
/// owed, questions the time budget cut off included. After [hook]
/// block_limit blocks in a row (default 3), or when the agent comes back
/// having changed nothing, the stop is let through with a systemMessage
/// saying what is still owed. Always exits 0 with valid
/// output: a failure of majordomus itself lets the stop through and says why.
#[derive(Debug, Args)]
pub struct StopArgs {
    /// The host calling the hook: it decides the output's protocol.
    #[arg(long, value_enum, default_value_t = Agent::Claude)]
    pub agent: Agent,
    /// The time budget of the measurement, in milliseconds (default: the
    /// policy's [hook] budget_ms, 20000). Keep it well under the host's timeout.
    #[arg(long, value_name = "MS")]
    pub budget_ms: Option<u64>,
}

/// The host's stop-hook input: the fields majordomus knows, each optional
/// (hosts differ, and add fields over time); the rest are ignored.
#[derive(Debug, Default, Deserialize)]
pub struct Payload {
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub hook_event_name: Option<String>,
    #[serde(default)]
    pub stop_hook_active: Option<bool>,
    #[serde(default)]
    pub last_assistant_message: Option<String>,
    /// Claude Code's background work still attached to the session; absent
    /// (not empty) when the host does not report it.
    #[serde(default)]
    pub background_tasks: Option<Vec<Value>>,
}

/// What the hook answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Let the stop through; the message, if any, is shown to the person.
    Allow { message: Option<String> },
    /// Keep the agent working; the reason is given to the agent.
    Block { reason: String },
}

impl Verdict {
    fn silent() -> Self {
        Verdict::Allow { message: None }
    }

    fn say(message: impl Into<String>) -> Self {
        Verdict::Allow { message: Some(message.into()) }
    }
}

/// The hook's answer, in the host's protocol (with a final newline where
/// there is anything to print).
pub fn render(agent: Agent, verdict: &Verdict) -> String {
    let value = match verdict {
        Verdict::Allow { message: None } => match agent {
            Agent::Claude => return String::new(),
            Agent::Codex => json!({}),
        },
        Verdict::Allow { message: Some(m) } => json!({ "systemMessage": m }),
        Verdict::Block { reason } => json!({ "decision": "block", "reason": reason }),
    };
    format!("{value}\n")
}

pub fn cmd_hook_stop(explicit_dir: Option<&Path>, args: StopArgs) -> Exit {
    let started = Instant::now();
    let verdict = match guarded(|| answer(explicit_dir, &args, started)) {
        Ok(Ok(v)) => v,
        Ok(Err(failure)) => {
            Verdict::say(format!("majordomus could not answer this stop, so it let it through: {failure}"))
        }
        Err(panic) => {
            Verdict::say(format!("majordomus crashed while answering this stop, so it let it through: {panic}"))
        }
    };
    emit(&render(args.agent, &verdict));
    Exit::Ok
}

/// Answers a `hook stop` whose command line could not be parsed: lets the
/// stop through, saying why, in output every host accepts.
pub fn answer_unparsed(error: &str) -> Exit {
    let first = error.lines().next().unwrap_or(error).trim_start_matches("error: ");
    let verdict = Verdict::say(format!(
        "majordomus hook stop could not read its command line, so it let the stop through: {first}"
    ));
    emit(&render(Agent::Codex, &verdict));
    Exit::Ok
}

fn emit(text: &str) {
    let mut stdout = std::io::stdout().lock();
    // A host that stopped listening has nothing left to tell.
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}

/// Runs `f`, turning a panic into its message (and where it happened)
/// instead of a crash, and keeping the default panic output off stderr.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let caught = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
    let slot = caught.clone();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with no message".to_string());
        let at = info.location().map(|l| format!(" (at {}:{})", l.file(), l.line())).unwrap_or_default();
        if let Ok(mut s) = slot.lock() {
            *s = Some(format!("{message}{at}"));
        }
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    result.map_err(|_| caught.lock().ok().and_then(|mut s| s.take()).unwrap_or_else(|| "a panic".to_string()))
}

/// Everything the hook does; `Err` is a failure of majordomus itself.
fn answer(explicit_dir: Option<&Path>, args: &StopArgs, started: Instant) -> Result<Verdict, String> {
    let payload = read_payload()?;
    inject_fault();
    match payload.hook_event_name.as_deref() {
        None | Some("Stop" | "SubagentStop") => {}
        Some(other) => {
            return Ok(Verdict::say(format!(
                "majordomus hook stop answers the Stop and SubagentStop events; it was run for {other}, so it checked nothing"
            )))
        }
    }
    let here = || std::env::current_dir().map_err(|e| format!("cannot read the current directory ({e})"));
    // The payload's cwd first; where it does not exist or is in no
    // repository, the directory the hook runs in.
    let opened = match (explicit_dir, &payload.cwd) {
        (Some(d), _) => Workspace::open_for_check(d),
        (None, Some(c)) if !c.as_os_str().is_empty() => match Workspace::open_for_check(c) {
            Ok(opened) => Ok(opened),
            Err(_) => Workspace::open_for_check(&here()?),
        },
        (None, _) => Workspace::open_for_check(&here()?),
    };
    // Outside a repository there is no task to finish; in one this git
    // library cannot read, a task record is said to go unmeasured.
    let ws = match opened {
        Ok(crate::workspace::Opened::Readable(ws)) => ws,
        Ok(crate::workspace::Opened::Unreadable { paths, reason }) => {
            if matches!(TaskState::load(&paths.task()), TaskState::None) {
                return Ok(Verdict::silent());
            }
            return Ok(Verdict::say(format!(
                "majordomus measured nothing: a task is active here, but the repository cannot be read ({reason})"
            )));
        }
        Err(_) => return Ok(Verdict::silent()),
    };
    let record = match TaskState::load(&ws.paths.task()) {
        TaskState::None => return Ok(Verdict::silent()),
        TaskState::Unreadable(reason) => return unreadable_record(&ws, &payload, &reason),
        TaskState::Active(record) => record,
    };
    let policy = ws.policy().map_err(|e| e.chain())?;
    if let Some(tasks) = &payload.background_tasks {
        record_background(&ws, &record, tasks)?;
    }
    let budget_ms = args.budget_ms.unwrap_or(policy.hook.budget_ms);
    let doc = evaluate_within(&ws, Deadline::after(started, budget_ms)).map_err(|e| e.chain())?;
    write_document(&ws, &doc).map_err(|e| e.chain())?;
    // A hook record that cannot be read counts no blocks: the count is a
    // brake on loops, and starting it over costs at most one more block.
    let record_path = ws.paths.hook_for(payload.hook_event_name.as_deref());
    let previous = HookState::load(&record_path).ok().flatten();
    let fingerprint = majordomus_readings::fingerprint::head_and_index(&ws.repo).ok();
    let worktree = dirty_paths(&doc).map(|paths| majordomus_readings::fingerprint::worktree(ws.repo.root(), &paths));
    let asked = Asked {
        doc: &doc,
        caps: &policy.caps,
        task: &record,
        previous: previous.as_ref(),
        stop_hook_active: payload.stop_hook_active.unwrap_or(false),
        fingerprint: fingerprint.as_deref(),
        worktree: worktree.as_deref(),
        block_limit: policy.hook.block_limit,
        budget_ms,
    };
    let (verdict, blocks) = decide(&asked);
    let state = HookState {
        schema: HOOK_SCHEMA.to_string(),
        task: record.id.clone(),
        blocks,
        done_line: doc.done_line(),
        fingerprint,
        worktree,
        session_id: payload.session_id.clone(),
        at: now(),
    };
    ws.write_state(&record_path, &state.to_bytes()).map_err(|e| e.chain())?;
    Ok(verdict)
}

/// A task record that exists but cannot be read keeps the stop blocked:
/// it is no way out (`echo x > task.json` must not end a task), and the
/// agent can repair it or finish the task. The block limit still ends the
/// loop, counted under [`UNREADABLE_TASK`] in the hook's record.
fn unreadable_record(ws: &Workspace, payload: &Payload, reason: &str) -> Result<Verdict, String> {
    let policy = ws.policy().map_err(|e| e.chain())?;
    let record_path = ws.paths.hook_for(payload.hook_event_name.as_deref());
    let previous = HookState::load(&record_path).ok().flatten();
    let task = ws.paths.task();
    let shown = task.strip_prefix(ws.repo.root()).unwrap_or(&task).display().to_string();
    let (verdict, blocks) = decide_unreadable(reason, &shown, previous.as_ref(), policy.hook.block_limit);
    let state = HookState {
        schema: HOOK_SCHEMA.to_string(),
        task: UNREADABLE_TASK.to_string(),
        blocks,
        done_line: "done: unknown (the task record cannot be read)".to_string(),
        fingerprint: None,
        worktree: None,
        session_id: payload.session_id.clone(),
        at: now(),
    };
    ws.write_state(&record_path, &state.to_bytes()).map_err(|e| e.chain())?;
    Ok(verdict)
}

/// The task a hook record counts blocks for while the task record cannot be read.
pub const UNREADABLE_TASK: &str = "(unreadable task record)";

/// The verdict on a stop while the task record at `shown` cannot be read
/// (`reason`), and the consecutive blocks to record after it.
pub fn decide_unreadable(reason: &str, shown: &str, previous: Option<&HookState>, block_limit: u32) -> (Verdict, u32) {
    let blocks = previous.map_or(0, |p| p.blocks_for(UNREADABLE_TASK));
    let reason = majordomus_records::text::escape(reason);
    if blocks >= block_limit {
        return (
            Verdict::say(format!(
                "majordomus let this stop through after {} in a row ([hook] block_limit = {block_limit}), \
                 though the task record cannot be read ({reason}): nothing about the task is known to be done",
                times(blocks)
            )),
            0,
        );
    }
    let n = blocks + 1;
    (
        Verdict::Block {
            reason: format!(
                "majordomus blocked this stop: a task is recorded here, but its record {shown} cannot be read \
                 ({reason}), so nothing about it is known to be done (block {n} of {block_limit}).\n\
                 remedy: repair {shown} (it is JSON of the schema majordomus/task/v1), or end the task with \
                 `majordomus finish --outcome failed` (or partial, or blocked), which archives what is there; then stop again."
            ),
        },
        n,
    )
}

/// The paths the invariant found dirty or untracked, those inherited from
/// before the task included, as `committed` and `no-untracked` name them in
/// their details (under `measured` when exempt). `None` when either was not
/// measured: then nobody can say the working tree did not change.
pub fn dirty_paths(doc: &Document) -> Option<Vec<String>> {
    const NAMED: [(&str, [&str; 2]); 2] =
        [("committed", ["uncommitted", "inherited"]), ("no-untracked", ["untracked", "inherited"])];
    let mut out = Vec::new();
    for (id, keys) in NAMED {
        let Some(answer) = doc.questions.iter().find(|q| q.id == id) else { continue };
        let details = answer.details.get("measured").and_then(|m| m.get("details")).unwrap_or(&answer.details);
        let lists: Vec<&Vec<Value>> = keys.iter().filter_map(|k| details.get(*k).and_then(Value::as_array)).collect();
        if lists.is_empty() {
            return None;
        }
        out.extend(lists.into_iter().flatten().filter_map(Value::as_str).map(str::to_string));
    }
    Some(out)
}

fn read_payload() -> Result<Payload, String> {
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err("no hook input: standard input is a terminal, where the host pipes its stop-hook JSON".to_string());
    }
    let mut text = String::new();
    stdin.read_to_string(&mut text).map_err(|e| format!("cannot read the hook input ({e})"))?;
    serde_json::from_str(&text).map_err(|e| format!("the hook input is not the JSON object a stop hook receives ({e})"))
}

/// A test seam in debug builds only: `MAJORDOMUS_HOOK_FAULT=panic` makes the
/// hook panic once its input is read, so the crash path can be run for real.
#[cfg(debug_assertions)]
fn inject_fault() {
    if std::env::var_os("MAJORDOMUS_HOOK_FAULT").is_some_and(|v| v == "panic") {
        panic!("a fault injected by MAJORDOMUS_HOOK_FAULT");
    }
}

#[cfg(not(debug_assertions))]
fn inject_fault() {}

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

/// Appends what the agent reported running: the latest such entry is what
/// `no-background-work` judges, so an empty list is recorded too.
fn record_background(ws: &Workspace, record: &TaskRecord, tasks: &[Value]) -> Result<(), String> {
    let entry = Entry {
        at: now(),
        task: Some(record.id.clone()),
        event: Event::AgentBackground { tasks: running_tasks(tasks) },
    };
    ledger::append(&ws.paths, &entry).map_err(|e| majordomus_records::task::error_chain(&e))
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

// ---- the decision: pure, over the document and the last record -----------

/// What the decision is made from.
#[derive(Debug)]
pub struct Asked<'a> {
    pub doc: &'a Document,
    /// The policy's cap overrides.
    pub caps: &'a BTreeMap<String, u8>,
    pub task: &'a TaskRecord,
    pub previous: Option<&'a HookState>,
    pub stop_hook_active: bool,
    pub fingerprint: Option<&'a str>,
    /// [`dirty_paths`]'s working tree hashed (`None`: not measured).
    pub worktree: Option<&'a str>,
    pub block_limit: u32,
    pub budget_ms: u64,
}

/// The verdict, and the consecutive blocks to record for the task after it.
pub fn decide(a: &Asked) -> (Verdict, u32) {
    if a.doc.complete {
        return (Verdict::silent(), 0);
    }
    let done_line = a.doc.done_line();
    let (_, caps) = score::score(&a.doc.questions, a.caps);
    let answer = |id: &str| a.doc.questions.iter().find(|q| q.id == id);
    let (cut_off, open): (Vec<_>, Vec<_>) = caps.iter().partition(|c| answer(&c.id).is_some_and(cut_off_by_budget));
    let cut_ids: Vec<&str> = cut_off.iter().map(|c| c.id.as_str()).collect();
    if caps.is_empty() {
        // Not complete with nothing open: there were no questions at all.
        return (Verdict::say(format!("majordomus let this stop through: it had no question to ask ({done_line})")), 0);
    }
    let previous = a.previous.filter(|p| p.task == a.task.id);
    let blocks = previous.map_or(0, |p| p.blocks);
    let unchanged = previous.is_some_and(|p| {
        a.stop_hook_active
            && p.blocks > 0
            && p.done_line == done_line
            && a.fingerprint.is_some()
            && p.fingerprint.as_deref() == a.fingerprint
            && a.worktree.is_some()
            && p.worktree.as_deref() == a.worktree
    });
    if unchanged {
        return (
            Verdict::say(format!(
                "majordomus let this stop through: nothing changed since it blocked the last one \
                 (the same done line, HEAD, index and working tree). Still owed: {done_line}"
            )),
            0,
        );
    }
    if blocks >= a.block_limit {
        return (
            Verdict::say(format!(
                "majordomus let this stop through after {} in a row ([hook] block_limit = {}). Still owed: {done_line}",
                times(blocks),
                a.block_limit
            )),
            0,
        );
    }
    let n = blocks + 1;
    let done = if open.is_empty() { "not known to be done" } else { "not done" };
    let mut reason = format!(
        "majordomus blocked this stop: the task {:?} is {done} (score {}/10; block {n} of {}).\n{done_line}\n",
        a.task.task, a.doc.score, a.block_limit
    );
    if !open.is_empty() {
        reason.push_str("\nSettle these, most important first:\n");
    }
    for (i, cap) in open.iter().enumerate() {
        reason.push_str(&format!("\n{}. {} ({}; holds the score at {})\n", i + 1, cap.id, cap.status, cap.cap));
        // Evidence names what the repository holds: no control character
        // in it may start a line of its own in what the agent reads.
        let (evidence, remedy) = (crate::render::escape_text(&cap.evidence), crate::render::escape_text(&cap.remedy));
        reason.push_str(&format!("   {evidence}\n   remedy: {remedy}\n"));
    }
    if !cut_ids.is_empty() {
        let one = cut_ids.len() == 1;
        reason.push_str(&format!(
            "\nThe time budget of {} ms ran out, so {} not measured and {} unknown: {}. \
             Run `majordomus check` to measure {} fully (it has no time budget) and settle what it shows open; \
             if measuring routinely takes longer, raise [hook] budget_ms in .ai/repo/majordomus.toml.\n",
            a.budget_ms,
            if one { "this question was" } else { "these questions were" },
            if one { "is" } else { "are" },
            cut_ids.join(", "),
            if one { "it" } else { "them" },
        ));
    }
    reason.push_str(&format!(
        "\nWhen they are settled, stop again; `majordomus check` shows the whole invariant. \
         If one of them is not yours to settle, say which and why in your answer: after {} in a row majordomus lets the stop through.",
        times(a.block_limit)
    ));
    (Verdict::Block { reason }, n)
}

/// Whether a question is open only because the time budget cut its reading off.
fn cut_off_by_budget(answer: &Answer) -> bool {
    answer.unread_kind() == Some(majordomus_readings::UnreadKind::Budget)
}

fn times(n: u32) -> String {
    if n == 1 {
        "1 block".to_string()
    } else {
        format!("{n} blocks")
    }
}

#[cfg(test)]
mod tests {
    use majordomus_invariant::Status;
    use majordomus_records::task::{Snapshot, TASK_SCHEMA};

    use super::*;

    fn task() -> TaskRecord {
        TaskRecord {
            schema: TASK_SCHEMA.into(),
            id: "t-1".into(),
            task: "fix the parser".into(),
            scope: vec![],
            issues: vec![],
            started_at: "2026-11-30T10:00:00Z".into(),
            head: None,
            branch: Some("main".into()),
            snapshot: Snapshot::default(),
            owner: None,
        }
    }

    /// An answer; `cut_off` is the reason the time budget gave for not reading it.
    fn answer(id: &str, status: Status, cut_off: Option<&str>) -> Answer {
        Answer {
            id: id.into(),
            stage: "s".into(),
            question: "q?".into(),
            status,
            evidence: format!("What was read for {id}."),
            source: "src".into(),
            remedy: format!("settle {id}"),
            details: cut_off.map_or_else(|| json!({}), |u| json!({ "unread": u, "unread_kind": "budget" })),
        }
    }

    fn doc(answers: Vec<Answer>) -> Document {
        let (score, _) = score::score(&answers, &BTreeMap::new());
        Document::new(chrono::Utc::now(), "/r".into(), None, None, answers, score)
    }

    fn open_doc() -> Document {
        doc(vec![
            answer("scoped", Status::Pass, None),
            answer("committed", Status::Owed, None),
            answer("no-new-debt", Status::Refused, None),
            answer("measurable", Status::Owed, None),
        ])
    }

    fn state(blocks: u32, done_line: &str, fingerprint: &str) -> HookState {
        HookState {
            schema: HOOK_SCHEMA.into(),
            task: "t-1".into(),
            blocks,
            done_line: done_line.into(),
            fingerprint: Some(fingerprint.into()),
            worktree: Some(fingerprint.into()),
            session_id: None,
            at: "2026-11-30T10:00:00Z".into(),
        }
    }

    fn ask<'a>(
        doc: &'a Document,
        task: &'a TaskRecord,
        previous: Option<&'a HookState>,
        active: bool,
        fp: &'a str,
    ) -> Asked<'a> {
        static CAPS: BTreeMap<String, u8> = BTreeMap::new();
        Asked {
            doc,
            caps: &CAPS,
            task,
            previous,
            stop_hook_active: active,
            fingerprint: Some(fp),
            worktree: Some(fp),
            block_limit: 3,
            budget_ms: 20_000,
        }
    }

    #[test]
    fn a_complete_invariant_lets_the_stop_through_silently_and_resets_the_count() {
        let d = doc(vec![answer("scoped", Status::Pass, None), answer("pushed", Status::Exempt, None)]);
        let t = task();
        let before = state(2, "done: x=owed", "f");
        assert_eq!(decide(&ask(&d, &t, Some(&before), true, "f")), (Verdict::silent(), 0));
    }

    #[test]
    fn an_open_invariant_blocks_naming_the_most_important_question_first() {
        let d = open_doc();
        let t = task();
        let (verdict, blocks) = decide(&ask(&d, &t, None, false, "f"));
        assert_eq!(blocks, 1);
        let Verdict::Block { reason } = verdict else { panic!("expected a block, got {verdict:?}") };
        assert!(reason.contains("done: committed=owed no-new-debt=refused measurable=owed"), "{reason}");
        let debt = reason.find("1. no-new-debt (refused; holds the score at 5)").expect("debt first");
        let committed = reason.find("2. committed (owed; holds the score at 7)").expect("committed second");
        let measurable = reason.find("3. measurable (owed; holds the score at 9)").expect("measurable third");
        assert!(debt < committed && committed < measurable);
        assert!(reason.contains("   What was read for no-new-debt.\n   remedy: settle no-new-debt\n"), "{reason}");
        assert!(!reason.contains("scoped"), "a settled question is not named: {reason}");
    }

    #[test]
    fn evidence_with_a_newline_cannot_put_a_false_done_line_in_the_block_reason() {
        let mut forged = answer("committed", Status::Owed, None);
        forged.evidence = "1 tracked file is not committed: x\ndone: complete (19 pass, 0 exempt)".into();
        forged.remedy = "git commit\r\ndone: complete".into();
        let d = doc(vec![forged]);
        let t = task();
        let Verdict::Block { reason } = decide(&ask(&d, &t, None, false, "f")).0 else { panic!("expected a block") };
        let done_lines: Vec<&str> = reason.lines().filter(|l| l.trim_start().starts_with("done:")).collect();
        assert_eq!(done_lines, ["done: committed=owed"], "{reason}");
        assert!(reason.contains("committed: x\\ndone: complete (19 pass, 0 exempt)"), "{reason}");
    }

    #[test]
    fn equal_caps_keep_the_invariant_order() {
        let d = doc(vec![answer("pushed", Status::Owed, None), answer("integrated", Status::Owed, None)]);
        let t = task();
        let Verdict::Block { reason } = decide(&ask(&d, &t, None, false, "f")).0 else { panic!("expected a block") };
        assert!(reason.find("1. pushed").expect("pushed") < reason.find("2. integrated").expect("integrated"));
    }

    #[test]
    fn past_the_block_limit_the_stop_goes_through_naming_what_is_owed() {
        let d = open_doc();
        let t = task();
        let line = d.done_line();
        let before = state(3, &line, "f");
        let (verdict, blocks) = decide(&ask(&d, &t, Some(&before), false, "g"));
        assert_eq!(blocks, 0);
        let Verdict::Allow { message: Some(m) } = verdict else { panic!("expected a message, got {verdict:?}") };
        assert!(m.contains("after 3 blocks in a row") && m.contains(&line), "{m}");
    }

    #[test]
    fn a_limit_of_zero_never_blocks() {
        let d = open_doc();
        let t = task();
        let mut a = ask(&d, &t, None, false, "f");
        a.block_limit = 0;
        assert!(matches!(decide(&a).0, Verdict::Allow { message: Some(_) }));
    }

    #[test]
    fn an_agent_continuing_with_nothing_changed_is_let_through() {
        let d = open_doc();
        let t = task();
        let before = state(1, &d.done_line(), "f");
        let (verdict, blocks) = decide(&ask(&d, &t, Some(&before), true, "f"));
        assert_eq!(blocks, 0);
        let Verdict::Allow { message: Some(m) } = verdict else { panic!("expected a message, got {verdict:?}") };
        assert!(m.contains("nothing changed") && m.contains(&d.done_line()), "{m}");
    }

    #[test]
    fn a_change_since_the_last_block_is_blocked_again() {
        let d = open_doc();
        let t = task();
        let before = state(1, &d.done_line(), "f");
        assert_eq!(decide(&ask(&d, &t, Some(&before), true, "g")).1, 2, "HEAD or the index moved");
        let other_line = state(1, "done: committed=owed", "f");
        assert_eq!(decide(&ask(&d, &t, Some(&other_line), true, "f")).1, 2, "the done line moved");
        assert_eq!(decide(&ask(&d, &t, Some(&before), false, "f")).1, 2, "the host was not continuing from a block");
    }

    #[test]
    fn an_edit_the_index_does_not_see_is_a_change_and_so_is_a_tree_not_measured_or_not_recorded() {
        let d = open_doc();
        let t = task();
        let before = state(1, &d.done_line(), "f");
        let mut a = ask(&d, &t, Some(&before), true, "f");
        a.worktree = Some("w-edited");
        assert_eq!(decide(&a).1, 2, "the working tree moved");
        a.worktree = None;
        assert_eq!(decide(&a).1, 2, "the working tree was not measured now");
        let mut old = state(1, &d.done_line(), "f");
        old.worktree = None;
        assert_eq!(decide(&ask(&d, &t, Some(&old), true, "f")).1, 2, "a record from before the working tree was kept");
    }

    #[test]
    fn the_dirty_and_untracked_paths_are_read_from_the_details_exempt_ones_included() {
        let mut committed = answer("committed", Status::Owed, None);
        committed.details = json!({ "uncommitted": ["a.rs"], "inherited": ["old.rs"] });
        let mut untracked = answer("no-untracked", Status::Exempt, None);
        untracked.details =
            json!({ "exemption": {}, "measured": { "details": { "untracked": ["n.txt"], "inherited": [] } } });
        let d = doc(vec![committed.clone(), untracked]);
        assert_eq!(dirty_paths(&d), Some(vec!["a.rs".into(), "old.rs".into(), "n.txt".into()]));
        let cut = answer("no-untracked", Status::Unknown, Some("the time budget of 0 ms ran out before this was read"));
        assert_eq!(dirty_paths(&doc(vec![committed, cut])), None, "a tree not measured is not comparable");
    }

    #[test]
    fn blocks_counted_for_another_task_do_not_count() {
        let d = open_doc();
        let t = task();
        let mut before = state(3, &d.done_line(), "f");
        before.task = "t-0".into();
        assert_eq!(decide(&ask(&d, &t, Some(&before), true, "f")).1, 1);
    }

    #[test]
    fn questions_the_budget_cut_off_alone_block_saying_they_were_not_measured() {
        let cut = "the time budget of 20000 ms ran out before this was read";
        let d =
            doc(vec![answer("committed", Status::Unknown, Some(cut)), answer("pushed", Status::Unknown, Some(cut))]);
        let t = task();
        let (verdict, blocks) = decide(&ask(&d, &t, None, false, "f"));
        assert_eq!(blocks, 1);
        let Verdict::Block { reason } = verdict else { panic!("expected a block, got {verdict:?}") };
        assert!(reason.contains("is not known to be done"), "{reason}");
        assert!(
            reason.contains("The time budget of 20000 ms ran out, so these questions were not measured and are unknown: committed, pushed."),
            "{reason}"
        );
        assert!(reason.contains("Run `majordomus check` to measure them fully"), "{reason}");
        assert!(!reason.contains("Settle these"), "nothing measured is open: {reason}");
    }

    #[test]
    fn blocks_for_questions_the_budget_cut_off_still_end_at_the_limit() {
        let cut = "the time budget of 20000 ms ran out before this was read";
        let d = doc(vec![answer("committed", Status::Unknown, Some(cut))]);
        let t = task();
        let mut before = state(3, &d.done_line(), "f");
        before.worktree = None;
        let (verdict, blocks) = decide(&ask(&d, &t, Some(&before), true, "f"));
        assert_eq!(blocks, 0);
        let Verdict::Allow { message: Some(m) } = verdict else { panic!("expected a message, got {verdict:?}") };
        assert!(m.contains("after 3 blocks in a row"), "{m}");
    }

    #[test]
    fn questions_the_budget_cut_off_are_named_beside_those_that_block() {
        let cut = "the time budget of 20000 ms ran out before this was read";
        let d = doc(vec![answer("committed", Status::Owed, None), answer("pushed", Status::Unknown, Some(cut))]);
        let t = task();
        let Verdict::Block { reason } = decide(&ask(&d, &t, None, false, "f")).0 else { panic!("expected a block") };
        assert!(reason.contains("1. committed"), "{reason}");
        assert!(!reason.contains("2. pushed"), "{reason}");
        assert!(reason.contains("so this question was not measured and is unknown: pushed."), "{reason}");
    }

    #[test]
    fn a_document_with_no_questions_is_not_a_block() {
        let d = doc(vec![]);
        let t = task();
        assert!(!d.complete);
        assert!(matches!(decide(&ask(&d, &t, None, false, "f")), (Verdict::Allow { message: Some(_) }, 0)));
    }

    #[test]
    fn each_host_gets_its_own_silence_and_the_same_block() {
        assert_eq!(render(Agent::Claude, &Verdict::silent()), "");
        assert_eq!(render(Agent::Codex, &Verdict::silent()), "{}\n");
        let block = Verdict::Block { reason: "r".into() };
        assert_eq!(render(Agent::Claude, &block), "{\"decision\":\"block\",\"reason\":\"r\"}\n");
        assert_eq!(render(Agent::Codex, &block), render(Agent::Claude, &block));
        assert_eq!(render(Agent::Claude, &Verdict::say("m")), "{\"systemMessage\":\"m\"}\n");
    }

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
    fn an_unreadable_task_record_blocks_with_its_remedy_until_the_block_limit() {
        let shown = ".ai/local/state/task.json";
        let (verdict, blocks) = decide_unreadable("expected value at line 1 column 1", shown, None, 3);
        assert_eq!(blocks, 1);
        let Verdict::Block { reason } = verdict else { panic!("expected a block, got {verdict:?}") };
        assert!(reason.contains("its record .ai/local/state/task.json cannot be read"), "{reason}");
        assert!(
            reason.contains("repair .ai/local/state/task.json") && reason.contains("majordomus finish"),
            "{reason}"
        );
        let mut before = state(3, "done: unknown", "f");
        before.task = UNREADABLE_TASK.into();
        let (verdict, blocks) = decide_unreadable("r", shown, Some(&before), 3);
        assert_eq!(blocks, 0);
        assert!(matches!(verdict, Verdict::Allow { message: Some(m) } if m.contains("after 3 blocks in a row")));
        let (_, blocks) = decide_unreadable("r", shown, Some(&state(3, "done: x", "f")), 3);
        assert_eq!(blocks, 1, "blocks counted for a readable task are not this record's");
    }

    #[test]
    fn a_panic_becomes_a_message_with_its_place() {
        let err = guarded(|| -> u8 { panic!("boom") }).expect_err("panicked");
        assert!(err.starts_with("boom (at ") && err.contains("stop.rs"), "{err}");
        assert_eq!(guarded(|| 7), Ok(7));
    }
}
