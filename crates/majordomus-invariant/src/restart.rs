//! A restart does not launder. What a task leaves behind would be inherited
//! by the next task in the working tree, and inherited is never counted:
//! `finish --outcome partial` then `start` would make the first task's
//! uncommitted work, its unpushed commits, its branches, its baseline
//! entries and its failing gate someone else's, and the next check
//! `done: complete`. So `start` reads, from the archive, the task this
//! working tree ended last when it ended `partial`, `blocked` or `failed`
//! with questions open (the snapshot's `previous`), and **continues** it
//! ([`archived_record`]): the new record keeps that task's id (so its
//! todos, claims, filings, background work, acknowledgements and gate
//! verdicts in the ledger are still its own), its start commit, branch,
//! time, snapshot and scope (grown by what the new start names), and takes
//! only its description, issues and owner from the new start, none of
//! which decides an answer. The snapshot kept holds the policy file as
//! that task started, so the policy in force stays its own: a loosening
//! made since, before the finish or after it, is named and not in force,
//! as one made during the task is (README "The policy in force";
//! test/cases/381). Every answer left open names the task it continues.
//! The archive is found by which worktree of the repository the task ended
//! in, which a move keeps, not by the root it ended at, which another
//! worktree or a fresh clone can take since ([`previous`]).
//!
//! An archive that holds no task record (an older majordomus's, of a
//! record it could not read) cannot be continued: the start is a new one,
//! and every answer that names inherited evidence names that task instead.

use std::path::{Component, Path, PathBuf};

use serde_json::json;

use majordomus_records::ledger::Entry;
use majordomus_records::task::{PreviousTask, TaskRecord};

use crate::judgement::{with, Judgement};
use crate::question::QuestionId;
use crate::readings::Readings;

/// The questions whose inherited evidence a previous task may have left.
const NAMING: [QuestionId; 4] =
    [QuestionId::Committed, QuestionId::NoUntracked, QuestionId::NoStash, QuestionId::NothingAccumulated];

/// Names the previous task in an answer: in every answer left open of a
/// task that continues it, else in an answer that names inherited evidence.
pub(crate) fn name_previous(id: QuestionId, v: Judgement, r: &Readings) -> Judgement {
    let Some(record) = r.task.record() else { return v };
    let Some(previous) = record.snapshot.previous.as_ref() else { return v };
    if continues(record) {
        if matches!(v.status, crate::Status::Pass | crate::Status::Exempt) {
            return v;
        }
        return Judgement {
            evidence: format!("{} {}", v.evidence, continued_sentence(previous)),
            details: with(v.details, json!({ "continues": previous })),
            ..v
        };
    }
    let inherited = v.details.get("inherited").and_then(|i| i.as_array()).is_some_and(|i| !i.is_empty());
    if !NAMING.contains(&id) || !inherited {
        return v;
    }
    Judgement {
        evidence: format!("{} {}", v.evidence, sentence(previous)),
        details: with(v.details, json!({ "previous_task": previous })),
        ..v
    }
}

/// Whether `record` continues the task its start found left open: it
/// keeps that task's id.
pub fn continues(record: &TaskRecord) -> bool {
    record.snapshot.previous.as_ref().is_some_and(|p| p.id == record.id)
}

/// `This task continues ...`: what a task that continues another says of it.
pub fn continued_sentence(p: &PreviousTask) -> String {
    format!(
        "This task continues {:?} ({}), which ended {} at {} with questions left open ({}): it is measured from that task's start, and what that task left is its own; the archive is {}.",
        p.task, p.id, p.outcome, p.finished_at, p.done_line, p.archive
    )
}

/// What task `id` declared in `entries` (todos, claims, filings,
/// background work, acknowledgements, and their settling): what its
/// archive keeps, so that a start continuing it puts back what the ledger
/// lost between the two (`rm .ai/local/state/ledger.jsonl`, which `start`
/// would otherwise mark as it found it). Gate verdicts are not kept: one
/// lost is a gate to run again.
pub fn declarations(entries: Vec<Entry>, id: &str) -> Vec<Entry> {
    use majordomus_records::ledger::Event;
    entries
        .into_iter()
        .filter(|e| e.task.as_deref() == Some(id))
        .filter(|e| {
            matches!(
                e.event,
                Event::TodoAdd { .. }
                    | Event::TodoDone { .. }
                    | Event::Claim { .. }
                    | Event::Release { .. }
                    | Event::File { .. }
                    | Event::Background { .. }
                    | Event::BackgroundChild { .. }
                    | Event::BackgroundForget { .. }
                    | Event::Ack { .. }
            )
        })
        .collect()
}

/// What the previous task's archive keeps of its declarations
/// ([`declarations`]); none where it keeps none (an older majordomus's).
pub fn archived_declarations(p: &PreviousTask) -> Vec<Entry> {
    let Ok(bytes) = majordomus_records::regular::read(Path::new(&p.archive)) else { return Vec::new() };
    let Ok(mut doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else { return Vec::new() };
    let Some(kept) = doc.get_mut("ledger").map(serde_json::Value::take) else { return Vec::new() };
    let entries: Vec<Entry> = serde_json::from_value(kept).unwrap_or_default();
    // Each within the ledger's bounds, as any line appended is.
    declarations(entries.into_iter().filter(|e| e.check().is_ok()).collect(), &p.id)
}

/// The record the previous task's archive holds, which a start continues;
/// `None` where the archive cannot be read as a task record within its
/// bounds.
pub fn archived_record(p: &PreviousTask) -> Option<TaskRecord> {
    let bytes = majordomus_records::regular::read(Path::new(&p.archive)).ok()?;
    let mut doc: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let record: TaskRecord = serde_json::from_value(doc.get_mut("record")?.take()).ok()?;
    (record.id == p.id && record.check().is_ok()).then_some(record)
}

/// `What the start inherited includes what the previous task here left: ...`
pub fn sentence(p: &PreviousTask) -> String {
    format!(
        "What the start inherited includes what the previous task here left: {:?} ({}) ended {} at {} with questions left open ({}); its archive is {}.",
        p.task, p.id, p.outcome, p.finished_at, p.done_line, p.archive
    )
}

/// Whether an archive is of a task that ended with questions open.
fn open(doc: &serde_json::Value) -> bool {
    let text = |key: &str| doc.get(key).and_then(|s| s.as_str());
    text("outcome").is_some_and(|o| o != "completed")
        && text("done_line").is_some_and(|d| !d.starts_with("done: complete"))
}

/// Which worktree of its repository a git directory is, as the archive
/// records it: `""` for the main one, `worktrees/NAME` for a linked one.
/// It stays when the worktree moves (`git worktree move`, or the project's
/// directory moved whole), where its root does not.
pub fn worktree_key(git_dir: &Path, common_dir: &Path) -> String {
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let (git_dir, common_dir) = (canon(git_dir), canon(common_dir));
    git_dir.strip_prefix(&common_dir).map(|k| k.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Whether a worktree of the repository whose common git directory is
/// `common_dir` is there under `key` ([`worktree_key`]): the main one is
/// the repository itself; a linked one is while git keeps its admin
/// directory (`git worktree remove` and `prune` delete it).
fn worktree_there(common_dir: &Path, key: &str) -> bool {
    let mut parts = Path::new(key).components();
    match (parts.next(), parts.next(), parts.next()) {
        (None, ..) => true,
        (Some(Component::Normal(w)), Some(Component::Normal(_)), None) if w == "worktrees" => {
            common_dir.join(key).is_dir()
        }
        // Not a key `finish` writes: no worktree of this repository.
        _ => false,
    }
}

/// Whether an archive is of a task this worktree ended. Which worktree of
/// the repository it was decides, not where: the archive is in this
/// repository's common git directory, and its key (`""` for the main
/// worktree, `worktrees/NAME` for a linked one) stays with the worktree
/// through `git worktree move` and a `mv` of the project, while the root
/// it ended at can be taken since by another worktree (`git worktree add`
/// at the old path) or another repository (a fresh clone there), neither
/// of which is this one (test/cases/465). A worktree put back under the
/// name of one removed (git names a worktree after its directory, so one
/// added again where it was takes the same name) is that worktree again
/// and continues its task, as it holds its stop (343); one standing at the
/// root a task ended at, whose worktree is gone, continues it too, so a
/// name changed on the way back is no way out of it. An archive of an
/// older majordomus names no worktree: its root decides.
fn this_worktrees(doc: &serde_json::Value, root: &Path, key: &str, common_dir: &Path) -> bool {
    let at_root = doc.get("root").and_then(|r| r.as_str()).map_or(true, |r| Path::new(r) == root);
    match doc.get("worktree").and_then(|k| k.as_str()) {
        None => at_root,
        Some(k) => k == key || (at_root && !worktree_there(common_dir, k)),
    }
}

/// The task this working tree ended last, read from the archive
/// directories (the common git directory's, `common_dir`'s, then the one
/// an older majordomus kept in the worktree), when it ended other than
/// `completed` with questions open: one this worktree ended, wherever its
/// root was then ([`this_worktrees`]; `key` is this worktree's,
/// [`worktree_key`]). An archive that cannot be read is passed over: it
/// can tell nothing.
pub fn previous(archive_dirs: &[PathBuf], root: &Path, key: &str, common_dir: &Path) -> Option<PreviousTask> {
    let mut latest: Option<(String, serde_json::Value, String)> = None;
    let entries = archive_dirs.iter().filter_map(|d| std::fs::read_dir(d).ok()).flatten();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().map_or(true, |e| e != "json") {
            continue;
        }
        let Some(doc) = majordomus_records::regular::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        else {
            continue;
        };
        // An archive kept for several working trees names the one it was
        // made in, and the worktree it was.
        if !this_worktrees(&doc, root, key, common_dir) {
            continue;
        }
        let Some(at) = doc.get("finished_at").and_then(|f| f.as_str()).map(str::to_string) else { continue };
        // Finished in the same second (`finish` keeps whole seconds), which
        // came last cannot be told: one left open is taken, so that a task
        // finished `completed` in the second another was left open does not
        // make a start after both a new one.
        let later =
            latest.as_ref().map_or(true, |(then, held, _)| at > *then || (at == *then && !open(held) && open(&doc)));
        if later {
            latest = Some((at, doc, path.display().to_string()));
        }
    }
    let (finished_at, doc, archive) = latest?;
    if !open(&doc) {
        return None;
    }
    let text = |v: &serde_json::Value, key: &str| v.get(key).and_then(|s| s.as_str()).map(str::to_string);
    let outcome = text(&doc, "outcome")?;
    let done_line = text(&doc, "done_line")?;
    if outcome == "completed" || done_line.starts_with("done: complete") {
        return None;
    }
    let record = doc.get("record")?;
    Some(PreviousTask {
        id: text(record, "id")?,
        task: text(record, "task")?,
        outcome,
        finished_at,
        done_line,
        archive,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(dir: &Path, name: &str, outcome: &str, at: &str, done: &str) {
        let doc = json!({ "outcome": outcome, "finished_at": at, "done_line": done, "score": 7,
                          "record": { "id": name, "task": format!("task {name}") } });
        std::fs::write(dir.join(format!("{name}.json")), doc.to_string()).expect("write");
    }

    #[test]
    fn the_last_task_ended_with_questions_open_is_the_previous_one_and_a_completed_one_is_none() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dirs = [dir.path().to_path_buf()];
        assert_eq!(previous(&dirs, dir.path(), "", dir.path()), None);
        archive(dir.path(), "a", "partial", "2026-11-30T10:00:00Z", "done: committed=owed");
        archive(dir.path(), "b", "failed", "2026-11-30T11:00:00Z", "done: pushed=owed");
        let p = previous(&dirs, dir.path(), "", dir.path()).expect("previous");
        assert_eq!((p.id.as_str(), p.outcome.as_str(), p.done_line.as_str()), ("b", "failed", "done: pushed=owed"));
        assert!(sentence(&p).contains("\"task b\" (b) ended failed"), "{}", sentence(&p));
        archive(dir.path(), "c", "completed", "2026-11-30T12:00:00Z", "done: complete (19 pass, 0 exempt)");
        assert_eq!(previous(&dirs, dir.path(), "", dir.path()), None);
    }

    #[test]
    fn a_previous_task_is_continued_only_from_an_archive_holding_its_whole_record() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dirs = [dir.path().to_path_buf()];
        // One `finish` made of a record it could not read: no record to continue.
        archive(dir.path(), "a", "failed", "2026-11-30T10:00:00Z", "done: pushed=owed");
        let p = previous(&dirs, dir.path(), "", dir.path()).expect("previous");
        assert_eq!(archived_record(&p), None);
        let record = json!({ "schema": "majordomus/task/v1", "id": "a", "task": "task a",
                             "started_at": "2026-11-30T09:00:00Z", "head": null, "branch": "main" });
        let doc = json!({ "outcome": "failed", "finished_at": "2026-11-30T10:00:00Z", "done_line": "done: pushed=owed",
                          "record": record });
        std::fs::write(dir.path().join("a.json"), doc.to_string()).expect("write");
        let p = previous(&dirs, dir.path(), "", dir.path()).expect("previous");
        let mut kept = archived_record(&p).expect("the archived record");
        assert_eq!((kept.id.as_str(), kept.started_at.as_str()), ("a", "2026-11-30T09:00:00Z"));
        assert!(!continues(&kept), "a record whose snapshot names no previous task continues none");
        kept.snapshot.previous = Some(p.clone());
        assert!(continues(&kept));
        kept.id = "b".into();
        assert!(!continues(&kept), "a new id is a new task");
    }

    #[test]
    fn a_task_left_open_is_found_by_which_worktree_it_was_not_by_whether_its_root_is_taken() {
        let dir = tempfile::tempdir().expect("tempdir");
        let common = tempfile::tempdir().expect("the common git directory");
        let other = tempfile::tempdir().expect("another worktree's root");
        let dirs = [dir.path().to_path_buf()];
        let put = |root: &Path, key: &str| {
            let doc = json!({ "outcome": "failed", "finished_at": "2026-11-30T10:00:00Z", "done_line": "done: pushed=owed",
                              "root": root, "worktree": key, "record": { "id": "a", "task": "task a" } });
            std::fs::write(dir.path().join("a.json"), doc.to_string()).expect("write");
        };
        let c = common.path();
        let here = dir.path().join("here");
        put(Path::new("/gone/since/the/move"), "worktrees/x");
        assert!(previous(&dirs, &here, "worktrees/x", c).is_some(), "the same worktree, moved");
        assert_eq!(previous(&dirs, &here, "worktrees/y", c), None, "another worktree");
        put(other.path(), "worktrees/x");
        assert!(previous(&dirs, &here, "worktrees/x", c).is_some(), "moved, and another worktree made at its old root");
        assert!(previous(&dirs, other.path(), "worktrees/x1", c).is_some(), "at its root, its worktree gone");
        std::fs::create_dir_all(c.join("worktrees/x")).expect("an admin directory");
        assert_eq!(previous(&dirs, other.path(), "worktrees/x1", c), None, "at its root, its worktree still there");
        put(other.path(), "");
        assert!(previous(&dirs, &here, "", c).is_some(), "the main worktree, moved, a fresh clone at its old root");
        assert_eq!(previous(&dirs, other.path(), "worktrees/x", c), None, "at its root, the main worktree is there");
        put(other.path(), "../../elsewhere");
        assert!(previous(&dirs, other.path(), "worktrees/x", c).is_some(), "a key finish never writes is no worktree");
        assert_eq!(previous(&dirs, &here, "worktrees/x", c), None);
    }

    #[test]
    fn of_two_tasks_finished_in_the_same_second_the_one_left_open_is_the_previous_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dirs = [dir.path().to_path_buf()];
        archive(dir.path(), "a", "completed", "2026-11-30T10:00:00Z", "done: complete (19 pass, 0 exempt)");
        archive(dir.path(), "b", "failed", "2026-11-30T10:00:00Z", "done: pushed=owed");
        archive(dir.path(), "c", "completed", "2026-11-30T10:00:00Z", "done: complete (19 pass, 0 exempt)");
        assert_eq!(previous(&dirs, dir.path(), "", dir.path()).map(|p| p.id), Some("b".to_string()));
    }
}
