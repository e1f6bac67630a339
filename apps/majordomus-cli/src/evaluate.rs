//! Running the invariant: the readings, the answers, the score, the
//! document. `check`, `finish` and every later caller go through here, so
//! there is one way to answer the done invariant.

use majordomus_invariant::document::RecordJson;
use majordomus_invariant::in_force::InForce;
use majordomus_invariant::{branch_cache, done, measure, score, Deadline, Document, Readings};
use majordomus_records::task::TaskState;
use majordomus_records::StatePaths;

use crate::workspace::Workspace;
use crate::CliError;

/// Measures and judges the invariant; writes nothing.
pub fn evaluate(ws: &Workspace) -> Result<Document, CliError> {
    evaluate_within(ws, Deadline::NONE)
}

/// Measures and judges the invariant, taking no reading past `deadline`
/// (those answer `unknown`, naming the time budget); writes nothing.
pub fn evaluate_within(ws: &Workspace, deadline: Deadline) -> Result<Document, CliError> {
    // The branches' ref files are walked while the task record is read.
    let tips = branch_cache::begin(&ws.repo, &ws.paths, deadline);
    let (task, text) = TaskState::here_with_text(&ws.paths);
    let force = ws.in_force(&task)?;
    evaluate_in_force(ws, task, text.as_deref(), force, deadline, tips)
}

/// A task record's text at least this long is taken into the document on
/// a thread of its own (a shorter one costs less than starting a thread).
const TEXT_ON_A_THREAD: usize = 64 << 10;

/// [`evaluate_within`] for a task record and its policy in force already
/// read (the stop hook reads both to find the task and its budget: a task
/// record holding large baselines is read once, not three times); `text`:
/// the bytes an active record was read from, which the document holds as
/// they are; `tips`: the branches' tips, begun before the record was read
/// (`branch_cache::begin`).
pub fn evaluate_in_force(
    ws: &Workspace,
    task: TaskState,
    text: Option<&[u8]>,
    force: InForce,
    deadline: Deadline,
    tips: branch_cache::Reader,
) -> Result<Document, CliError> {
    // The record's text goes into the document as it is (checked as JSON:
    // milliseconds at ten thousand branches), on a thread of its own while
    // the readings are taken where it is large enough to be worth one.
    let text = text.filter(|_| matches!(task, TaskState::Active(_)));
    let (json, (readings, fingerprint)) = std::thread::scope(|scope| {
        let thread =
            text.filter(|t| t.len() >= TEXT_ON_A_THREAD).map(|t| scope.spawn(move || RecordJson::from_text(t)));
        // Taken on the way, each part before what reads the same, so that
        // anything moving during the measurement makes the cached document
        // read as stale (measure::measure_fingerprinted).
        let measured = measure::measure_fingerprinted(&ws.repo, &ws.paths, &force.policy, task, deadline, tips);
        let json = match thread {
            Some(thread) => thread.join().ok().and_then(Result::ok),
            None => text.and_then(|t| RecordJson::from_text(t).ok()),
        };
        (json, measured)
    });
    let (task_json, task_error) = match json {
        Some(json) => (Some(json), None),
        None => task_fields(&readings.task)?,
    };
    let answers = done::answer_in_force(&readings, &force);
    let large = text.is_some_and(|t| t.len() >= TEXT_ON_A_THREAD)
        || readings.branches.as_ref().is_ok_and(|b| b.len() >= LARGE_BRANCH_COUNT);
    dispose(readings, large);
    let (score, caps) = score::score(&answers, &force.policy.caps);
    let mut doc =
        Document::new(chrono::Utc::now(), ws.repo.root().display().to_string(), task_json, task_error, answers, score);
    doc.caps = caps;
    doc.fingerprint = Some(fingerprint);
    doc.policy = force.finding;
    Ok(doc)
}

/// From this many local branches, what was read is [`dispose`]d of on a
/// thread of its own.
const LARGE_BRANCH_COUNT: usize = 1_000;

/// Drops what was read, once answered, except where it is `large`. At ten
/// thousand branches dropping it is some hundred thousand frees (every
/// branch's name and commit, as read now and as the start snapshot holds
/// them), a tenth of a check's instructions, on a machine whose every core
/// the check keeps busy: there it is left to the end of the process, which
/// returns its memory whole (nothing in it is a file, a lock or a child
/// process, and every command evaluates a bounded number of times: a stop
/// hook once per task around it).
fn dispose(readings: Readings, large: bool) {
    if large {
        std::mem::forget(readings);
    }
}

/// Writes the document to `.ai/local/state/gates.completion.json`.
pub fn write_document(ws: &Workspace, doc: &Document) -> Result<(), CliError> {
    write_document_in(&ws.paths, doc)
}

/// Writes the document among the state files of `paths`: atomically, not
/// flushed to the disk first (the next check writes it again; see
/// `Dir::replace_derived`).
pub fn write_document_in(paths: &StatePaths, doc: &Document) -> Result<(), CliError> {
    write_document_bytes(paths, &document_bytes(doc)?)
}

/// [`write_document_in`] for the document already encoded
/// ([`document_bytes`]): `check --json` writes to its output the same
/// bytes it keeps, encoded once.
pub fn write_document_bytes(paths: &StatePaths, bytes: &[u8]) -> Result<(), CliError> {
    crate::workspace::write_derived_state(paths, &paths.completion(), bytes)
}

/// The invariant over a repository libgit2 cannot read: every reading
/// unread, for `reason`, so every question is `unknown` and says why.
pub fn evaluate_unreadable(paths: &StatePaths, reason: &str) -> Result<Document, CliError> {
    let task = TaskState::here(paths);
    let force = crate::workspace::in_force_unopened(paths, &task)?;
    let (task_json, task_error) = task_fields(&task)?;
    let readings = Readings::unreadable(task, &sentence_reason(reason));
    let answers = done::answer_in_force(&readings, &force);
    let (score, caps) = score::score(&answers, &force.policy.caps);
    let mut doc =
        Document::new(chrono::Utc::now(), paths.root().display().to_string(), task_json, task_error, answers, score);
    doc.caps = caps;
    doc.policy = force.finding;
    Ok(doc)
}

fn sentence_reason(reason: &str) -> String {
    format!("this repository cannot be read: {reason}")
}

fn task_fields(task: &TaskState) -> Result<(Option<RecordJson>, Option<String>), CliError> {
    Ok(match task {
        TaskState::Active(r) => {
            (Some(RecordJson::of(r).map_err(|e| CliError::internal("cannot encode the task record", e))?), None)
        }
        TaskState::None => (None, None),
        TaskState::Unreadable(reason) => (None, Some(reason.clone())),
    })
}

/// The document as pretty JSON with a final newline.
pub fn document_bytes(doc: &Document) -> Result<Vec<u8>, CliError> {
    let mut bytes = serde_json::to_vec_pretty(doc).map_err(|e| CliError::internal("cannot encode the document", e))?;
    bytes.push(b'\n');
    Ok(bytes)
}
