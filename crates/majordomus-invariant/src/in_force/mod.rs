//! The policy in force: what every command that judges or records against
//! the policy (`check`, `score`, `gate`, `hook stop`, `explain`, `markers`,
//! `finish`, `ack`, `sweep`, ...) reads, through [`read`] and nothing else.
//!
//! The policy is a file in the working tree, so a task could loosen what
//! judges it: exempt its own open question, turn a failing gate's command
//! into `true`, raise its own caps. The rule (README.md, "The policy in
//! force"): **the policy in force for a task is the policy as it stood when
//! the task started**, plus only those changes since that add strictness
//! (a new gate, a new extra question, an exemption narrowed or removed, a
//! lower cap, ...). Any loosening is not in force for this task: it is
//! named, with the entry and how it loosens, and takes effect for the next
//! task. `stricter.rs` holds the rule of every key, one function each;
//! because it takes the policy apart with exhaustive patterns, a key added
//! to the policy does not compile until it has a rule.
//!
//! Where the start's policy comes from: `start` keeps the file's text in
//! the task record's snapshot (but where the file held an edit uncommitted
//! then that the task has committed since, the start commit's file: what
//! the task puts into history is its change); a record written before that was kept falls
//! back to the file in the start commit; a record with neither (it started
//! on an unborn HEAD) says so, and then only what is at least as strict as
//! the defaults is in force. Without a task, the working tree's policy is
//! the policy, and one with problems is refused as it always was. With a
//! task, a working-tree policy that no longer parses leaves the start's in
//! force and is named; `gates-green` refuses until it is repaired
//! ([`hold_open`]), since no later run could read the gates it declares.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::json;

use majordomus_readings::Repo;
use majordomus_records::paths::POLICY_FILE;
use majordomus_records::policy::{Policy, PolicyError};
use majordomus_records::task::{TaskRecord, TaskState};

use crate::answer::{Answer, Status};
use crate::prose::short;

pub mod stricter;
#[cfg(test)]
mod tests;

/// The policy every command judges and records by, and how it came to be.
#[derive(Debug, Clone, PartialEq)]
pub struct InForce {
    pub policy: Policy,
    /// What the document says of it; `None` without a task (the working
    /// tree's policy is the policy, and nothing is compared).
    pub finding: Option<PolicyFinding>,
}

/// The policy as the document reports it: where the start's policy was
/// read from, every change since, and whether each is in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyFinding {
    /// The policy file, relative to the root.
    pub file: String,
    /// Where the start's policy was read from, in words.
    pub start: String,
    /// Each change the working tree's policy makes to the start's.
    #[serde(default)]
    pub changes: Vec<Change>,
    /// Why the working tree's policy cannot be read, when it cannot: the
    /// start's is in force, and `gates-green` refuses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
}

/// One change to the policy since the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// The entry: `[gates.unit] run`, `[[exempt]] committed`, `[caps] pushed`, ...
    pub entry: String,
    /// What changed, in words.
    pub how: String,
    pub effect: Effect,
    /// Whether it applies to this task: only what does not loosen does.
    pub in_force: bool,
}

/// What a change does to what judges the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// Adds strictness: in force at once.
    Stricter,
    /// Loosens: not in force for this task.
    Looser,
    /// Decides nothing a question answers (a wording, the hook's time
    /// budget): in force at once.
    Neutral,
}

impl Change {
    pub(crate) fn new(entry: impl Into<String>, how: impl Into<String>, effect: Effect) -> Self {
        Self { entry: entry.into(), how: how.into(), effect, in_force: effect != Effect::Looser }
    }

    /// The change as a sentence: the entry, what changed, and whether it is
    /// in force for this task.
    pub fn sentence(&self) -> String {
        if self.entry == POLICY_FILE && self.effect == Effect::Looser {
            return format!(
                "{}: {}; the policy the task started under stays in force whole until it is repaired.",
                self.entry, self.how
            );
        }
        let verdict = match self.effect {
            Effect::Stricter => "it only adds strictness, so it is in force at once",
            Effect::Neutral => "it decides nothing a question answers, so it is in force at once",
            Effect::Looser => "a loosening, so not in force for this task (it is for the next)",
        };
        format!("{}: {}; {verdict}.", self.entry, self.how)
    }
}

impl PolicyFinding {
    /// The changes that are not in force for the task.
    pub fn loosenings(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| !c.in_force)
    }
}

/// The policy in force in the working tree `root` for `task`: the start's,
/// with the changes since that add strictness. `repo` is read only for a
/// record that predates keeping the policy's text (the start commit's
/// file); `None` where the repository cannot be read. Without a task the
/// working tree's policy, or its problems.
pub fn read(repo: Option<&Repo>, root: &Path, task: &TaskState) -> Result<InForce, PolicyError> {
    let builtin = crate::question::builtin_ids();
    let path = root.join(POLICY_FILE);
    let Some(record) = task.record() else {
        return Policy::load(&path, &builtin).map(|policy| InForce { policy, finding: None });
    };
    let start = at_start(repo, record, &builtin);
    let now_text = match majordomus_records::regular::read_to_string(&path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => match repo {
            Some(repo) => outside_checkout(repo, &path),
            None => Ok(None),
        },
        Err(source) => Err(PolicyError::Io { path: path.clone(), source }),
    };
    let now = now_text.as_ref().map_err(|e| error_text(e)).and_then(|t| match t {
        Some(text) => Policy::parse(Path::new(POLICY_FILE), text, &builtin).map_err(|e| error_text(&e)),
        None => Ok(Policy::default()),
    });
    let mut finding = PolicyFinding {
        file: POLICY_FILE.to_string(),
        start: start.from.clone(),
        changes: Vec::new(),
        unreadable: None,
    };
    let policy = match now {
        Ok(now) => {
            let (policy, changes) = stricter::merge(&start.policy, &now);
            finding.changes = changes;
            let text_moved = matches!((&start.text, &now_text), (Some(then), Ok(now)) if then != now);
            if finding.changes.is_empty() && text_moved {
                finding.changes.push(Change::new(
                    POLICY_FILE,
                    "its text changed since the start, and nothing it decides did",
                    Effect::Neutral,
                ));
            }
            policy
        }
        Err(why) => {
            finding.changes.push(Change::new(
                POLICY_FILE,
                format!("no longer reads as a policy ({why})"),
                Effect::Looser,
            ));
            finding.unreadable = Some(why);
            start.policy
        }
    };
    Ok(InForce { policy, finding: Some(finding) })
}

/// An error and its causes on one line, each line of its problems kept apart by `; `.
fn error_text(e: &dyn std::error::Error) -> String {
    majordomus_records::task::error_chain(e).replace('\n', "; ")
}

/// The policy as it stood at the task's start, where it was read from, and
/// its text where that is known.
struct AtStart {
    policy: Policy,
    from: String,
    /// `Some(None)`: there was no policy file. `None`: not known.
    text: Option<Option<String>>,
}

fn at_start(repo: Option<&Repo>, record: &TaskRecord, builtin: &[&str]) -> AtStart {
    let parsed = |text: &Option<String>, from: String, what: &str| -> AtStart {
        match text {
            None => AtStart { policy: Policy::default(), from, text: Some(None) },
            Some(t) => match Policy::parse(Path::new(POLICY_FILE), t, builtin) {
                Ok(policy) => AtStart { policy, from, text: Some(Some(t.clone())) },
                Err(e) => unrecorded(format!("{what} no longer reads as a policy ({})", error_text(&e))),
            },
        }
    };
    if let Some(kept) = &record.snapshot.policy {
        // A policy file edited and uncommitted at the start that the task
        // committed since: what the task puts into history is the task's,
        // so the start is the start commit's file, and the edit a change.
        if let (Some(repo), Some(start)) = (repo, record.head.as_deref()) {
            if committed_since(repo, record, start) {
                if let Ok(text) = in_commit(repo, start) {
                    return parsed(
                        &text,
                        format!(
                            "the start commit {}'s policy file (the file held edits uncommitted at the start that the task has committed since, so they are its change)",
                            short(start)
                        ),
                        "the policy in the start commit",
                    );
                }
            }
        }
        return parsed(
            &kept.text,
            "the task record's copy of the policy file at the start".into(),
            "the policy the task record kept",
        );
    }
    let Some(start) = record.head.as_deref() else {
        return unrecorded(
            "the task record predates keeping the policy, and the task started on an unborn HEAD, with no commit to read it from"
                .into(),
        );
    };
    let Some(repo) = repo else {
        return unrecorded(format!(
            "the task record predates keeping the policy, and the start commit {} cannot be read here",
            short(start)
        ));
    };
    match in_commit(repo, start) {
        Ok(text) => parsed(
            &text,
            format!("the start commit {}'s policy file (the task record predates keeping a copy)", short(start)),
            "the policy in the start commit",
        ),
        Err(why) => unrecorded(format!("the task record predates keeping the policy, and {why}")),
    }
}

/// Whether the policy file was edited and uncommitted at the start and
/// HEAD now holds it other than the start commit did: the task committed
/// the edit. Read only where the start snapshot names it dirty, so most
/// reads cost nothing. A policy file untracked at the start (the first
/// one, `init` written and not yet committed, the start commit holding
/// none) is not asked about: committing it sets the repository up, and
/// the start kept it as the policy the task began under.
fn committed_since(repo: &Repo, record: &TaskRecord, start: &str) -> bool {
    if !record.snapshot.dirty.iter().flatten().any(|d| d.path == POLICY_FILE) {
        return false;
    }
    let Some(head) = majordomus_readings::refs::head(repo).ok().and_then(|h| h.commit) else { return false };
    let blob = |id: &str| {
        let commit = git2::Oid::from_str(id).and_then(|oid| repo.git.find_commit(oid)).ok()?;
        let tree = commit.tree().ok()?;
        Some(tree.get_path(Path::new(POLICY_FILE)).ok().map(|e| (e.id(), e.filemode())))
    };
    head != start && blob(&head).is_some_and(|now| blob(start).is_some_and(|then| now != then))
}

/// A start whose policy is not known: the defaults stand for it, so only
/// what is at least as strict as the defaults is in force.
fn unrecorded(why: String) -> AtStart {
    AtStart {
        policy: Policy::default(),
        from: format!(
            "not known: {why}; the defaults stand for it, so only what is at least as strict as the defaults is in force"
        ),
        text: None,
    }
}

/// The policy file's text in commit `start`; `Ok(None)` when it holds none.
fn in_commit(repo: &Repo, start: &str) -> Result<Option<String>, String> {
    let commit = git2::Oid::from_str(start)
        .and_then(|oid| repo.git.find_commit(oid))
        .map_err(|_| format!("the start commit {} is not in this repository", short(start)))?;
    let tree = commit.tree().map_err(|e| format!("the tree of the start commit cannot be read ({})", e.message()))?;
    let entry = match tree.get_path(Path::new(POLICY_FILE)) {
        Ok(entry) => entry,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
        Err(e) => return Err(format!("{POLICY_FILE} in the start commit cannot be read ({})", e.message())),
    };
    let blob = entry
        .to_object(&repo.git)
        .and_then(|o| o.peel_to_blob())
        .map_err(|e| format!("{POLICY_FILE} in the start commit cannot be read ({})", e.message()))?;
    String::from_utf8(blob.content().to_vec())
        .map(Some)
        .map_err(|_| format!("{POLICY_FILE} in the start commit is not UTF-8"))
}

/// The text `start` keeps in the snapshot: the policy file as it is now
/// (`None`: there is none). A file that cannot be read is the error `start`
/// refuses with.
pub fn text_to_keep(repo: &Repo) -> Result<Option<String>, PolicyError> {
    let path = repo.root().join(POLICY_FILE);
    match majordomus_records::regular::read_to_string(&path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => outside_checkout(repo, &path),
        Err(source) => Err(PolicyError::Io { path, source }),
    }
}

/// The policy file a sparse checkout keeps out of the working tree, as
/// the index holds it (`None`: the repository holds none there either): it
/// is the repository's policy all the same (test/cases/351). Its content
/// missing (a partial clone) is an error, never "no policy".
fn outside_checkout(repo: &Repo, path: &Path) -> Result<Option<String>, PolicyError> {
    let io = |why: String| PolicyError::Io { path: path.to_path_buf(), source: std::io::Error::other(why) };
    let skipped =
        majordomus_readings::sparse_file::skipped(repo, &[POLICY_FILE.to_string()]).map_err(|e| io(e.reason))?;
    match skipped.into_iter().next() {
        Some((_, bytes)) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| io(format!("{POLICY_FILE}, outside the sparse checkout, is not UTF-8"))),
        None => Ok(None),
    }
}

/// While the working tree's policy cannot be read, `gates-green` refuses:
/// the start's gates are judged (what was measured is kept in the
/// details), but the gates the repository declares from now on cannot be
/// read by any later run, CI's included.
pub fn hold_open(answers: &mut [Answer], finding: Option<&PolicyFinding>) {
    let Some(why) = finding.and_then(|f| f.unreadable.as_deref()) else { return };
    let Some(a) = answers.iter_mut().find(|a| a.id == crate::QuestionId::GatesGreen.as_str()) else { return };
    let measured = json!({ "status": a.status, "evidence": a.evidence, "details": a.details });
    a.evidence = format!(
        "The policy file {POLICY_FILE} no longer reads as a policy ({why}): the gates it declares cannot be read by any later run. The start's gates are in force for this task; as they judge it: {}",
        a.evidence
    );
    a.details = json!({ "policy_unreadable": why, "measured": measured });
    a.status = Status::Refused;
    a.remedy = format!("repair {POLICY_FILE} (majordomus check names every problem in it); the policy the task started under judges it meanwhile");
}
