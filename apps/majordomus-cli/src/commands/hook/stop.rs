//! `majordomus hook stop`: the coding agent's stop hook.
//!
//! The moment an agent wants to stop is the moment it is most ready to round
//! up, so that is where the done invariant is asked. The host (Claude Code's
//! and Codex's `Stop` and `SubagentStop`) pipes its hook input in
//! ([`super::protocol`] reads it and writes the answer in the host's
//! protocol); this file finds the tasks the stop concerns, measures each,
//! and keeps the loop guards:
//!
//! - the tasks: every active task of a working tree the stop concerns
//!   ([`super::locate`]: where the agent stands, the project around it, the
//!   hook's own directory, `CLAUDE_PROJECT_DIR`). None: the stop is allowed
//!   silently. Any open: blocked, the reason naming which task and where;
//! - background work the host reports still running (Claude Code's
//!   `background_tasks`) makes the stop a pause: the host wakes the session
//!   when the work ends, so the stop is let through with a message naming
//!   the work, no block counted, and the invariant is judged at the stop
//!   that comes when nothing runs. The ledger records the work either way,
//!   for `no-background-work` ([`super::background`]; a report that
//!   nothing runs, where the one in force says so already, adds nothing);
//! - the loop guard ([`super::decide`] decides from it) is kept per host,
//!   session and agent, in each task's working tree;
//! - with a task found, a Claude Code stop also asks whether a session
//!   started now would run any hook ([`super::in_force`]: `disableAllHooks`
//!   in force), and a stop of either host whether majordomus's stop hook is
//!   still in the project's settings where the start commit held it: where
//!   not, the stop is blocked once, saying so.
//!
//! A task record that exists but cannot be read is no way out
//! (`echo x > task.json` must not end a task): the stop is blocked, naming
//! the record and its remedy, up to the block limit like any other block.
//!
//! The hook always exits 0 with valid output. A failure of majordomus
//! itself, a panic included, lets the stop through and says why in
//! `systemMessage`: a host must never take majordomus's own trouble for a
//! verdict on the agent's work. What it cannot write once the work is
//! measured (the document, a loop guard, the host's background report) is
//! no such failure: the state lies in the working tree, where a worker can
//! put a link or a file in its way, so the verdict stands and says so
//! ([`unkept`]). Measurement runs within a time budget well under the
//! host's timeout.

use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

use clap::Args;
use serde_json::Value;

use majordomus_invariant::Deadline;
use majordomus_invariant::Document;
use majordomus_records::hook::{HookKey, HookState, HOOK_SCHEMA};
use majordomus_records::task::{TaskRecord, TaskState};

use super::background::{others_running, pause, record_background};
use super::decide::{decide, Asked};
use super::locate::{self, Place, Starts};
use super::protocol::{emit, guarded, inject_fault, read_payload, render_stop, StopPayload, Verdict};
use super::Agent;
use crate::evaluate::{evaluate_in_force, write_document};
use crate::workspace::{Opened, Workspace};
use crate::Exit;

/// Answer a coding agent's stop hook: block the stop while the done
/// invariant is not complete.
///
/// Reads the host's Stop or SubagentStop hook input (JSON) on standard
/// input and answers on standard output in the host's protocol: nothing
/// (Claude Code) or {} (Codex) lets the stop through; {"decision": "block",
/// "reason": ...} keeps the agent working, the reason naming what is still
/// owed, questions the time budget cut off included. Every active task the
/// stop concerns is asked: where the agent stands, the project around it
/// (superproject, main worktree), the hook's own directory and
/// CLAUDE_PROJECT_DIR. Background work the host reports still running makes
/// the stop a pause, let through. After [hook] block_limit blocks in a row
/// (default 3), or when the agent comes back having changed nothing, the
/// stop is let through with a systemMessage saying what is still owed.
/// Always exits 0 with valid output: a failure of majordomus itself (a
/// crash included) while a task is asked blocks the stop once, saying why
/// (a stop that came of a block goes through); with no task, or before the
/// input is read, it lets the stop through and says why.
#[derive(Debug, Args)]
pub struct StopArgs {
    /// The host calling the hook: it decides the output's protocol.
    #[arg(long, value_enum, default_value_t = Agent::Claude)]
    pub agent: Agent,
    /// The time budget of the measurement, in milliseconds (default: the
    /// policy's [hook] budget_ms, 20000). Keep it well under the host's timeout.
    #[arg(long, value_name = "MS")]
    pub budget_ms: Option<u64>,
    /// The seconds the host gives the hook before it kills it (`hook
    /// install` writes its --timeout here): the measurement and the watch
    /// keep within it whatever the budget, so the stop is answered in time.
    #[arg(long, value_name = "SECONDS")]
    pub host_timeout: Option<u64>,
}

pub fn cmd_hook_stop(explicit_dir: Option<&Path>, args: StopArgs) -> Exit {
    let started = Instant::now();
    let verdict = match guarded(|| answer(explicit_dir, &args, started)) {
        Ok(Ok(v)) => v,
        Ok(Err(failure)) => unanswered(failed(&failure), "could not answer it", &failure),
        Err(panic) => unanswered(crashed(&panic), "crashed while answering it", &panic),
    };
    super::watchdog::answer(args.agent, &verdict);
    Exit::Ok
}

/// What the stop was known to be when majordomus failed to answer it
/// ([`unanswered`]): nothing yet (its input unread), a stop that did or did
/// not come of a block, or one that concerns no task.
static KNOWN: AtomicU8 = AtomicU8::new(UNREAD);
const UNREAD: u8 = 0;
const FRESH: u8 = 1;
const OF_A_BLOCK: u8 = 2;
const NO_TASK: u8 = 3;

/// The answer to a stop majordomus failed to answer (`let_through`, its
/// words for letting it through). A crash or a failure is no way out: the
/// content of the repository can cause one (a panic on text a reader did
/// not expect), and a stop let through on it would be a pass nobody
/// measured. So while a task is asked the stop is blocked, saying why; a
/// stop that came of a block goes through with the same words, so a fault
/// nobody can clear costs one block, not every turn (as the watch's own
/// answer does, `watchdog.rs`). With no task found, or before the input
/// says which stop this is, the stop goes through as before.
fn unanswered(let_through: String, what: &str, why: &str) -> Verdict {
    if KNOWN.load(Ordering::SeqCst) != FRESH {
        return Verdict::say(let_through);
    }
    Verdict::Block { reason: blocked_unanswered("", what, why) }
}

/// The reason of a stop blocked because majordomus `what` (`at`: for which
/// place, or empty).
fn blocked_unanswered(at: &str, what: &str, why: &str) -> String {
    format!(
        "majordomus blocked this stop{at}: it {what} ({why}), so nothing about the task is known to be done. \
         Run `majordomus check` to see what is owed; a stop that comes of this block goes through."
    )
}

/// A task's answer that could not be given (`at`: for which place): the
/// stop blocked, unless it came of a block ([`unanswered`]).
fn task_unanswered(at: &str, failure: &str, active: bool) -> Verdict {
    if active {
        Verdict::say(format!("majordomus could not answer this stop{at}, so it let it through: {failure}"))
    } else {
        Verdict::Block { reason: blocked_unanswered(at, "could not answer it", failure) }
    }
}

/// Answers a `hook stop` whose command line could not be parsed: lets the
/// stop through, saying why, in output every host accepts.
pub fn answer_unparsed(error: &str) -> Exit {
    emit(&render_stop(Agent::Codex, &Verdict::say(unparsed(error))));
    Exit::Ok
}

fn failed(failure: &str) -> String {
    format!("majordomus could not answer this stop, so it let it through: {failure}")
}

fn crashed(panic: &str) -> String {
    format!("majordomus crashed while answering this stop, so it let it through: {panic}")
}

fn unparsed(error: &str) -> String {
    let first = error.lines().next().unwrap_or(error).trim_start_matches("error: ");
    format!("majordomus hook stop could not read its command line, so it let the stop through: {first}")
}

fn not_a_stop(event: &str) -> String {
    format!(
        "majordomus hook stop answers the Stop and SubagentStop events; it was run for {event}, so it checked nothing"
    )
}

/// A working tree the stop concerns, with its active task.
struct Concerned {
    place: Place,
    ws: Workspace,
    record: TaskRecord,
    /// The bytes the record was read from.
    text: Option<Vec<u8>>,
}

/// A working tree whose task record exists but cannot be read: why.
struct Broken {
    place: Place,
    ws: Workspace,
    reason: String,
}

/// The tasks a stop concerns: those measured, those whose record cannot be
/// read, and what is said of a task whose repository cannot be read.
struct Found {
    concerned: Vec<Concerned>,
    broken: Vec<Broken>,
    unmeasured: Vec<Unmeasured>,
    /// Tasks left open in linked worktrees that are gone, with a workspace
    /// of their repository (`orphan.rs`).
    orphans: Vec<(Workspace, Vec<super::orphan::Orphan>)>,
}

/// A working tree holding a task record, in a repository that cannot be
/// read: why.
struct Unmeasured {
    place: Place,
    paths: majordomus_records::StatePaths,
    reason: String,
}

/// Everything the hook does; `Err` is a failure of majordomus itself.
fn answer(explicit_dir: Option<&Path>, args: &StopArgs, started: Instant) -> Result<Verdict, String> {
    let payload: StopPayload = read_payload("a stop hook")?;
    // From here a reading that never returns still gets an answer in time.
    super::watchdog::start(
        args.agent,
        started,
        args.budget_ms.unwrap_or(majordomus_records::policy::DEFAULT_BUDGET_MS),
        args.host_timeout,
        payload.stop_hook_active.unwrap_or(false),
    );
    KNOWN.store(if payload.stop_hook_active.unwrap_or(false) { OF_A_BLOCK } else { FRESH }, Ordering::SeqCst);
    inject_fault();
    match payload.hook_event_name.as_deref() {
        None | Some("Stop" | "SubagentStop") => {}
        Some(other) => return Ok(Verdict::say(not_a_stop(other))),
    }
    let session = payload.session_id.as_deref().map(|id| (args.agent.as_str(), id));
    let starts = Starts::of_this_process(explicit_dir, payload.cwd.as_deref());
    let Found { concerned, broken, unmeasured, orphans } = tasks(&starts, session);
    if concerned.is_empty() && broken.is_empty() && unmeasured.is_empty() && orphans.is_empty() {
        KNOWN.store(NO_TASK, Ordering::SeqCst);
        return Ok(Verdict::silent());
    }
    let mut verdicts = Vec::new();
    if let Some(tasks) = &payload.background_tasks {
        let running = others_running(tasks, &payload);
        for c in &concerned {
            // Not recorded is said, and judged as what the ledger held before:
            // never a reason to let the stop through.
            if let Err(failure) = record_background(&c.ws, &c.record, &running) {
                verdicts.push(Verdict::say(format!(
                    "majordomus could not record the background work the host reported: {failure}"
                )));
            }
        }
        if !running.is_empty() {
            verdicts.insert(0, Verdict::say(pause(&running)));
            return Ok(combine(verdicts));
        }
    }
    let key = guard_key(args.agent, &payload);
    let active = payload.stop_hook_active.unwrap_or(false);
    for b in &broken {
        let verdict = unreadable_record(b, &key, active).unwrap_or_else(|failure| {
            let at = b.place.named().map(|p| format!(" for {p}")).unwrap_or_default();
            task_unanswered(&at, &failure, active)
        });
        verdicts.push(verdict);
        verdicts.extend(crate::workspace::torn_ledger(&b.ws.paths).map(Verdict::say));
    }
    for (ws, gone) in &orphans {
        verdicts.extend(gone.iter().map(|o| super::orphan::verdict(ws, o, &key)));
    }
    // Whether the stop hook `hook install` put in the project is still
    // there for a session started now (`in_force.rs`).
    // Said after the tasks' own answers.
    let taken_out: Vec<Verdict> = concerned
        .iter()
        .filter_map(|c| super::in_force::taken_out(&c.ws.repo, c.record.head.as_deref(), args.agent))
        .map(|said| super::in_force::taken_out_verdict(&said, args.agent, active))
        .collect();
    for c in concerned {
        let at = c.place.named().map(|p| format!(" for {p}")).unwrap_or_default();
        let paths = c.ws.paths.clone();
        let verdict =
            judge(c, &payload, args, &key, started).unwrap_or_else(|failure| task_unanswered(&at, &failure, active));
        verdicts.push(verdict);
        // A note, whatever the verdict: with a block it follows the reason.
        verdicts.extend(crate::workspace::torn_ledger(&paths).map(Verdict::say));
    }
    for u in &unmeasured {
        verdicts.push(unreadable_repository(u, &key, active).unwrap_or_else(|failure| {
            let at = u.place.named().map(|p| format!(" for {p}")).unwrap_or_default();
            task_unanswered(&at, &failure, active)
        }));
    }
    verdicts.extend(taken_out);
    // With a task active, whether a session started now would run this
    // hook at all (`in_force.rs`): the host's settings, read only here.
    if args.agent == super::Agent::Claude {
        if let Some(off) = starts
            .claude_project()
            .and_then(|p| super::in_force::claude_hooks_off(&super::in_force::ClaudeFiles::of(&p)))
        {
            verdicts.push(super::in_force::verdict(&off, active));
        }
    }
    Ok(combine(verdicts))
}

/// The active tasks of every working tree the starts concern, and of every
/// linked worktree or submodule of their repositories where the stopping
/// session (`session`: its host and id) started one, those whose record
/// cannot be read, and what is to be said of a task whose repository
/// cannot be read.
fn tasks(starts: &Starts, session: Option<(&str, &str)>) -> Found {
    let mut concerned = Vec::new();
    let mut broken = Vec::new();
    let mut unmeasured = Vec::new();
    let mut orphans = Vec::new();
    let mut repositories = std::collections::BTreeSet::new();
    let mut sessions = Vec::new();
    let places = locate::places_opened(starts).into_iter().map(|l| (l.place, l.repo));
    let mut places: std::collections::VecDeque<_> = places.collect();
    while let Some((place, repo)) = places.pop_front() {
        // The repository the walk opened there, else opened now.
        let opened = match repo {
            Some(repo) => Ok(Opened::Readable(Workspace::of(repo))),
            None => Workspace::open_for_check(&place.from),
        };
        // Once per repository: the tasks left in its linked worktrees that
        // are gone, and those this session started in its other worktrees
        // and submodules (`cd .worktrees/x && majordomus start`, then the
        // stop from the project: test/cases/363).
        if let Ok(Opened::Readable(ws)) = &opened {
            if repositories.insert(ws.repo.common_dir().to_path_buf()) {
                let mut kept = majordomus_invariant::orphans::kept(&ws.repo);
                // A task left open in a repository nested here that is gone
                // holds only the stop of the session that started it.
                kept.orphans.retain(|o| {
                    o.nested.as_ref().map_or(true, |n| {
                        n.session.as_ref().is_some_and(|(h, id)| session == Some((h.as_str(), id.as_str())))
                    })
                });
                if !kept.orphans.is_empty() {
                    if let Ok(Opened::Readable(again)) = Workspace::open_for_check(&place.from) {
                        orphans.push((again, kept.orphans));
                    }
                }
                sessions.extend(kept.held.into_iter().filter(|h| started_by(h, session)).map(|h| h.root));
            }
        }
        if places.is_empty() {
            for root in sessions.drain(..) {
                let root = root.canonicalize().unwrap_or(root);
                let seen = |p: &Place| p.root == root;
                if concerned.iter().any(|c: &Concerned| seen(&c.place))
                    || broken.iter().any(|b: &Broken| seen(&b.place))
                    || seen(&place)
                    || places.iter().any(|(p, _)| seen(p))
                {
                    continue;
                }
                let how = Some("where this session started its task".to_string());
                places.push_back((Place { from: root.clone(), root, how }, None));
            }
        }
        match opened {
            Ok(Opened::Readable(ws)) => match TaskState::here_with_text(&ws.paths) {
                (TaskState::None, _) => {}
                (TaskState::Unreadable(reason), _) => broken.push(Broken { place, ws, reason }),
                (TaskState::Active(record), text) => concerned.push(Concerned { place, ws, record: *record, text }),
            },
            // Outside a repository there is no task to finish; in one this
            // git library cannot read, a task record is said to go unmeasured.
            Ok(Opened::Unreadable { paths, reason }) => {
                if !matches!(TaskState::here(&paths), TaskState::None) {
                    unmeasured.push(Unmeasured { place, paths, reason });
                }
            }
            Err(_) => {}
        }
    }
    Found { concerned, broken, unmeasured, orphans }
}

/// Whether the task `held` was started in the session `session` (host, id).
fn started_by(held: &majordomus_invariant::orphans::Held, session: Option<(&str, &str)>) -> bool {
    let Some((host, id)) = session.filter(|(_, id)| !id.is_empty()) else { return false };
    // The id as the record's JSON spells it.
    let spelled = serde_json::to_string(id).unwrap_or_default();
    let Some(record) = held.record_naming(spelled.trim_matches('"')) else { return false };
    let started = record.owner.as_ref().and_then(|o| o.session.as_ref());
    started.is_some_and(|s| s.host == host && s.id == id)
}

/// Blocks a stop while a task record cannot be read, keeping the loop
/// guard under [`UNREADABLE_TASK`] so the block limit ends the loop.
fn unreadable_record(b: &Broken, key: &HookKey, stop_hook_active: bool) -> Result<Verdict, String> {
    let ws = &b.ws;
    // A policy that does not read either is no way out: the default limit.
    let block_limit =
        ws.policy().map_or(majordomus_records::policy::DEFAULT_BLOCK_LIMIT, |policy| policy.hook.block_limit);
    let guard = ws.paths.hook_for(key);
    let previous = HookState::load(&guard).ok().flatten();
    let task = ws.paths.task();
    let shown = match b.place.named() {
        Some(p) => format!(
            "{}",
            std::path::Path::new(&p).join(majordomus_records::paths::STATE_DIR).join("task.json").display()
        ),
        None => task.strip_prefix(ws.repo.root()).unwrap_or(&task).display().to_string(),
    };
    let done_line = "done: unknown (the task record cannot be read)";
    let (verdict, blocks) = decide_unreadable(&b.reason, &shown, previous.as_ref(), block_limit);
    let state = unmeasured_state(key, blocks, done_line);
    let kept = ws.write_state(&guard, &state.to_bytes()).map_err(|e| e.chain());
    Ok(unkept(verdict, &[], kept.err(), stop_hook_active, done_line))
}

/// The loop guard of a stop whose task could not be measured (its record
/// or its repository unreadable): the blocks so far and what was said.
pub(super) fn unmeasured_state(key: &HookKey, blocks: u32, done_line: &str) -> HookState {
    HookState {
        schema: HOOK_SCHEMA.to_string(),
        task: UNREADABLE_TASK.to_string(),
        blocks,
        done_line: done_line.to_string(),
        fingerprint: None,
        worktree: None,
        host: Some(key.host.clone()),
        session_id: key.session_id.clone(),
        agent_id: key.agent_id.clone(),
        at: now(),
    }
}

/// Blocks a stop while a task is recorded in a repository that cannot be
/// read (a format libgit2 cannot read, a `core.worktree` leading nowhere):
/// nothing about the task is measured, so nothing is known to be done. The
/// policy cannot be read in force either, so the default block limit ends
/// the loop.
fn unreadable_repository(u: &Unmeasured, key: &HookKey, stop_hook_active: bool) -> Result<Verdict, String> {
    let guard = u.paths.hook_for(key);
    let previous = HookState::load(&guard).ok().flatten();
    let at = u.place.named().map(|p| format!(" in {p}")).unwrap_or_else(|| " here".to_string());
    let reason = majordomus_records::text::escape(&u.reason);
    let (verdict, blocks) = decide_unmeasured(
        &format!("a task is active{at}, but the repository cannot be read ({reason})"),
        &format!(
            "make the repository readable again (undo the configuration that broke it), or give the task up \
             by removing {}",
            u.paths.task().display()
        ),
        previous.as_ref(),
        majordomus_records::policy::DEFAULT_BLOCK_LIMIT,
    );
    let done_line = "done: unknown (the repository cannot be read)";
    let state = unmeasured_state(key, blocks, done_line);
    let kept = crate::workspace::write_state(&u.paths, &guard, &state.to_bytes()).map_err(|e| e.chain());
    Ok(unkept(verdict, &[], kept.err(), stop_hook_active, done_line))
}

/// The task a loop guard counts blocks for while the task record cannot be read.
pub const UNREADABLE_TASK: &str = "(unreadable task record)";

/// The verdict on a stop while the task record at `shown` cannot be read
/// (`reason`), and the consecutive blocks to record after it.
pub fn decide_unreadable(reason: &str, shown: &str, previous: Option<&HookState>, block_limit: u32) -> (Verdict, u32) {
    let reason = majordomus_records::text::escape(reason);
    decide_unmeasured(
        &format!("a task is recorded, but its record {shown} cannot be read ({reason})"),
        &format!(
            "repair {shown} (it is JSON of the schema majordomus/task/v1), or end the task with \
             `majordomus finish --outcome failed` (or partial, or blocked), which archives what is there"
        ),
        previous,
        block_limit,
    )
}

/// The verdict on a stop while a task is recorded but nothing of it can be
/// measured (`problem`; `remedy` settles it): blocked, as nothing about the
/// task is known to be done, until the block limit ends the loop; and the
/// consecutive blocks to record after it.
pub fn decide_unmeasured(
    problem: &str,
    remedy: &str,
    previous: Option<&HookState>,
    block_limit: u32,
) -> (Verdict, u32) {
    let blocks = previous.map_or(0, |p| p.blocks_for(UNREADABLE_TASK));
    let times = |n: u32| if n == 1 { "1 block".to_string() } else { format!("{n} blocks") };
    if blocks >= block_limit {
        return (
            Verdict::say(format!(
                "majordomus let this stop through after {} in a row ([hook] block_limit = {block_limit}); \
                 still, {problem}: nothing about the task is known to be done",
                times(blocks)
            )),
            0,
        );
    }
    let n = blocks + 1;
    (
        Verdict::Block {
            reason: format!(
                "majordomus blocked this stop: {problem}, so nothing about it is known to be done \
                 (block {n} of {block_limit}).\nremedy: {remedy}; then stop again."
            ),
        },
        n,
    )
}

/// The loop guard's key: this host, the session, and the subagent (a
/// `SubagentStop` that names none still counts apart from the main agent).
fn guard_key(agent: Agent, payload: &StopPayload) -> HookKey {
    let subagent = payload.hook_event_name.as_deref() == Some("SubagentStop");
    HookKey {
        host: agent.as_str().to_string(),
        session_id: payload.session_id.clone(),
        agent_id: payload.agent_id.clone().or_else(|| subagent.then(|| "SubagentStop".to_string())),
    }
}

/// Measures one task and decides, keeping its loop guard.
fn judge(
    c: Concerned,
    payload: &StopPayload,
    args: &StopArgs,
    key: &HookKey,
    started: Instant,
) -> Result<Verdict, String> {
    let Concerned { place, ws, mut record, text } = c;
    let ws = &ws;
    // The branches' ref files are walked while the policy is read (begun
    // before the budget is known, as the first reading, which it is).
    let tips = majordomus_invariant::branch_cache::begin(&ws.repo, &ws.paths, Deadline::NONE);
    // The record found above, read once: its policy in force and the
    // measurement both take it; the guard keeps its name (copied without
    // its snapshot, which can list thousands of branches).
    let snapshot = std::mem::take(&mut record.snapshot);
    let named = record.clone();
    record.snapshot = snapshot;
    let task = TaskState::Active(Box::new(record));
    let force = ws.in_force(&task).map_err(|e| e.chain())?;
    let policy = force.policy.clone();
    let asked_ms = args.budget_ms.unwrap_or(policy.hook.budget_ms);
    let budget_ms = super::watchdog::allow(asked_ms);
    let host_cut = args.host_timeout.filter(|_| budget_ms < asked_ms).map(|s| (args.agent.as_str(), s));
    let deadline = Deadline::after(started, budget_ms);
    let doc = evaluate_in_force(ws, task, text.as_deref(), force, deadline, tips).map_err(|e| e.chain())?;
    // The work is measured: what cannot be written is said, never a way out.
    let unwritten: Vec<String> = write_document(ws, &doc).err().map(|e| e.chain()).into_iter().collect();
    // A guard that cannot be read counts no blocks: the count is a brake on
    // loops, and starting it over costs at most one more block.
    let guard = ws.paths.hook_for(key);
    let previous = HookState::load(&guard).ok().flatten();
    // HEAD and the index's entries as the measurement took them, before
    // its readings (`measure::measure_fingerprinted`): the state this
    // verdict judged, not hashed a second time.
    let fingerprint = doc.fingerprint.as_ref().and_then(|f| f.index_entries.clone());
    let worktree = dirty_paths(&doc).map(|paths| majordomus_readings::fingerprint::worktree(ws.repo.root(), &paths));
    let place = place.named();
    let asked = Asked {
        doc: &doc,
        caps: &policy.caps,
        task: &named,
        previous: previous.as_ref(),
        stop_hook_active: payload.stop_hook_active.unwrap_or(false),
        fingerprint: fingerprint.as_deref(),
        worktree: worktree.as_deref(),
        block_limit: policy.hook.block_limit,
        budget_ms,
        host_cut,
        place: place.as_deref(),
    };
    let (verdict, blocks) = decide(&asked);
    let (stop_hook_active, done_line) = (asked.stop_hook_active, doc.done_line());
    let state = HookState {
        schema: HOOK_SCHEMA.to_string(),
        task: named.id.clone(),
        blocks,
        done_line: done_line.clone(),
        fingerprint,
        worktree,
        host: Some(key.host.clone()),
        session_id: key.session_id.clone(),
        agent_id: key.agent_id.clone(),
        at: now(),
    };
    // A stop that counts no block, where the guard already counts none for
    // this task, leaves the guard as it is: the next stop would decide the
    // same from either (with no block counted, nothing else in it is
    // compared; see decide.rs), and a stop on a finished task, the most
    // frequent of all, then writes no file but the document.
    let kept = if counts_nothing_still(previous.as_ref(), &state) {
        Ok(())
    } else {
        // Atomic, not flushed to the disk first: a guard lost with the machine
        // starts its count over, which (as above) costs at most one more block.
        let written =
            crate::workspace::write_derived_state(&ws.paths, &guard, &state.to_bytes()).map_err(|e| e.chain());
        // Pruned when this one is written: the first stop of a task writes
        // its guard (the one there counted another task, or none), so the
        // guards of the task before are gone from then on.
        if written.is_ok() {
            prune_guards(ws, &named.id, &guard);
        }
        written
    };
    Ok(unkept(verdict, &unwritten, kept.err(), stop_hook_active, &done_line))
}

/// A verdict reached over state majordomus could not write: the completion
/// document (`unwritten`), or the loop guard (`guard`). The state lies in
/// the working tree, where a worker can put a link or a file in its way, so
/// what could not be written is said and the verdict stands: a block still
/// blocks. Only without a guard to count blocks does the host's own flag
/// end the loop (`stop_hook_active`: this stop came of a block), letting
/// the stop through with what is still owed.
fn unkept(
    verdict: Verdict,
    unwritten: &[String],
    guard: Option<String>,
    stop_hook_active: bool,
    done_line: &str,
) -> Verdict {
    let failures: Vec<&str> = unwritten.iter().map(String::as_str).chain(guard.as_deref()).collect();
    if failures.is_empty() {
        return verdict;
    }
    let said = format!(
        "majordomus could not write its state here, so it cannot count blocks or keep its answer: {} \
         (the state directory, .ai/local/state, holds majordomus's files: put it back as a plain directory)",
        failures.join("; ")
    );
    match verdict {
        Verdict::Block { .. } if guard.is_some() && stop_hook_active => Verdict::say(format!(
            "majordomus let this stop through: it came of a block, and {said}. Still owed: {done_line}"
        )),
        Verdict::Block { reason } => Verdict::Block { reason: format!("{reason}\n\nAlso: {said}.") },
        Verdict::Allow { message: Some(m) } => Verdict::say(format!("{m}\n{said}")),
        Verdict::Allow { message: None } => Verdict::say(said),
    }
}

/// Whether the guard `previous` already says what `next` would: no block
/// counted for the same task.
pub fn counts_nothing_still(previous: Option<&HookState>, next: &HookState) -> bool {
    next.blocks == 0 && previous.is_some_and(|p| p.task == next.task && p.blocks == 0)
}

/// Removes the loop guards of tasks other than `task`: they count nothing
/// any more, and sessions would otherwise leave one each behind. A guard
/// that cannot be read or removed is left; it counts nothing either. The
/// stop's own guard (`own`, which names `task` once the stop is judged) is
/// not read again.
fn prune_guards(ws: &Workspace, task: &str, own: &Path) {
    let Ok(entries) = std::fs::read_dir(ws.paths.hook_dir()) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path != own
            && path.extension().is_some_and(|e| e == "json")
            && HookState::load(&path).ok().flatten().is_some_and(|s| s.task != task)
        {
            // Never through a link: removed only where it lies in the state directory.
            let _ = crate::workspace::remove_state(&ws.paths, &path);
        }
    }
}

/// One answer from the answers for each task: a block when any blocks, its
/// reasons in the order of the places; else the stop goes through, with
/// every message there is.
fn combine(verdicts: Vec<Verdict>) -> Verdict {
    let mut reasons = Vec::new();
    let mut messages = Vec::new();
    for v in verdicts {
        match v {
            Verdict::Block { reason } => reasons.push(reason),
            Verdict::Allow { message: Some(m) } => messages.push(m),
            Verdict::Allow { message: None } => {}
        }
    }
    if !reasons.is_empty() {
        let mut reason = reasons.join("\n\n");
        if !messages.is_empty() {
            reason.push_str("\n\nAlso: ");
            reason.push_str(&messages.join("\n"));
        }
        return Verdict::Block { reason };
    }
    if messages.is_empty() {
        Verdict::silent()
    } else {
        Verdict::say(messages.join("\n"))
    }
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

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use majordomus_invariant::{Answer, Status};
    use serde_json::json;

    use super::*;
    use crate::commands::hook::protocol::codex_accepts_stop;

    fn answer(id: &str, status: Status) -> Answer {
        Answer {
            id: id.into(),
            stage: "s".into(),
            question: "q?".into(),
            status,
            evidence: format!("What was read for {id}."),
            source: "src".into(),
            remedy: format!("settle {id}"),
            remedy_kind: majordomus_invariant::RemedyKind::Advice,
            details: json!({}),
        }
    }

    fn doc(answers: Vec<Answer>) -> Document {
        Document::new(chrono::Utc::now(), "/r".into(), None, None, answers, 5)
    }

    fn guard(task: &str, blocks: u32) -> HookState {
        HookState {
            schema: HOOK_SCHEMA.into(),
            task: task.into(),
            blocks,
            done_line: "done: x=owed".into(),
            fingerprint: None,
            worktree: None,
            host: None,
            session_id: None,
            agent_id: None,
            at: "2026-11-30T10:00:00Z".into(),
        }
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
        let (verdict, blocks) = decide_unreadable("r", shown, Some(&guard(UNREADABLE_TASK, 3)), 3);
        assert_eq!(blocks, 0);
        assert!(matches!(verdict, Verdict::Allow { message: Some(m) } if m.contains("after 3 blocks in a row")));
        let (_, blocks) = decide_unreadable("r", shown, Some(&guard("t-1", 3)), 3);
        assert_eq!(blocks, 1, "blocks counted for a readable task are not this record's");
    }

    #[test]
    fn a_guard_is_left_as_it_is_only_where_it_and_the_stop_both_count_no_block_for_the_task() {
        let kept = |previous: Option<HookState>, next: HookState| counts_nothing_still(previous.as_ref(), &next);
        assert!(kept(Some(guard("t-1", 0)), guard("t-1", 0)));
        assert!(!kept(None, guard("t-1", 0)), "no guard yet: one is written");
        assert!(!kept(Some(guard("t-1", 2)), guard("t-1", 0)), "a count that starts over is written");
        assert!(!kept(Some(guard("t-1", 0)), guard("t-1", 1)), "a block counted is written");
        assert!(!kept(Some(guard("t-0", 0)), guard("t-1", 0)), "another task's guard is replaced");
    }

    #[test]
    fn the_dirty_and_untracked_paths_are_read_from_the_details_exempt_ones_included() {
        let mut committed = answer("committed", Status::Owed);
        committed.details = json!({ "uncommitted": ["a.rs"], "inherited": ["old.rs"] });
        let mut untracked = answer("no-untracked", Status::Exempt);
        untracked.details =
            json!({ "exemption": {}, "measured": { "details": { "untracked": ["n.txt"], "inherited": [] } } });
        let d = doc(vec![committed.clone(), untracked]);
        assert_eq!(dirty_paths(&d), Some(vec!["a.rs".into(), "old.rs".into(), "n.txt".into()]));
        let mut cut = answer("no-untracked", Status::Unknown);
        cut.details = json!({ "unread": "the time budget of 0 ms ran out before this was read" });
        assert_eq!(dirty_paths(&doc(vec![committed, cut])), None, "a tree not measured is not comparable");
    }

    #[test]
    fn any_block_among_the_tasks_blocks_and_every_message_is_kept() {
        let block = |r: &str| Verdict::Block { reason: r.into() };
        assert_eq!(combine(vec![]), Verdict::silent());
        assert_eq!(combine(vec![Verdict::silent(), Verdict::silent()]), Verdict::silent());
        assert_eq!(combine(vec![Verdict::say("a"), Verdict::silent(), Verdict::say("b")]), Verdict::say("a\nb"));
        assert_eq!(combine(vec![Verdict::silent(), block("r1"), block("r2")]), block("r1\n\nr2"));
        assert_eq!(combine(vec![Verdict::say("m"), block("r")]), block("r\n\nAlso: m"));
    }

    #[test]
    fn a_subagent_counts_apart_from_its_main_agent_and_each_host_apart() {
        let payload = |event: &str, agent: Option<&str>| StopPayload {
            session_id: Some("s".into()),
            hook_event_name: Some(event.into()),
            agent_id: agent.map(Into::into),
            ..StopPayload::default()
        };
        let main = guard_key(Agent::Claude, &payload("Stop", None));
        let sub = guard_key(Agent::Claude, &payload("SubagentStop", Some("a1")));
        let unnamed = guard_key(Agent::Claude, &payload("SubagentStop", None));
        let codex = guard_key(Agent::Codex, &payload("Stop", None));
        let names = [&main, &sub, &unnamed, &codex].map(HookKey::file_name);
        assert_eq!(names.iter().collect::<std::collections::BTreeSet<_>>().len(), 4, "{names:?}");
    }

    /// Every answer `hook stop` gives from this file (the decisions are
    /// checked in `decide.rs`), rendered for Codex, is one Codex accepts.
    #[test]
    fn every_answer_of_its_own_is_one_codex_accepts() {
        let running = [majordomus_records::ledger::AgentTask { id: "b1".into(), description: Some("x".into()) }];
        let said = [
            failed("the policy is invalid"),
            crashed("boom (at stop.rs:1)"),
            unparsed("error: invalid value 'cursor'\n\nFor more information, try '--help'."),
            not_a_stop("PreToolUse"),
            pause(&running),
        ];
        let mut verdicts: Vec<Verdict> = said.into_iter().map(Verdict::say).collect();
        verdicts.push(Verdict::silent());
        verdicts.push(combine(vec![Verdict::say("m"), Verdict::Block { reason: "r".into() }]));
        for v in verdicts {
            let out = render_stop(Agent::Codex, &v);
            assert_eq!(codex_accepts_stop(&out), Ok(()), "{out}");
        }
    }
}
