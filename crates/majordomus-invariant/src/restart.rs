//! A restart does not launder. What a task leaves behind is inherited by the
//! next task in the working tree, and inherited is never counted: `finish
//! --outcome partial` then `start` would make the first task's uncommitted
//! work someone else's. So `start` records, from the archive, the task this
//! working tree ended last when it ended `partial`, `blocked` or `failed`
//! with questions open (the snapshot's `previous`), and every answer that
//! names inherited evidence names that task too: whose it was, how it
//! ended, what it left open, where its archive is.

use std::path::{Path, PathBuf};

use serde_json::json;

use majordomus_records::task::PreviousTask;

use crate::judgement::{with, Judgement};
use crate::question::QuestionId;
use crate::readings::Readings;

/// The questions whose inherited evidence a previous task may have left.
const NAMING: [QuestionId; 4] =
    [QuestionId::Committed, QuestionId::NoUntracked, QuestionId::NoStash, QuestionId::NothingAccumulated];

/// Names the previous task in an answer that names inherited evidence.
pub(crate) fn name_previous(id: QuestionId, v: Judgement, r: &Readings) -> Judgement {
    let Some(previous) = r.task.record().and_then(|t| t.snapshot.previous.as_ref()) else { return v };
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

/// `What the start inherited includes what the previous task here left: ...`
pub fn sentence(p: &PreviousTask) -> String {
    format!(
        "What the start inherited includes what the previous task here left: {:?} ({}) ended {} at {} with questions left open ({}); its archive is {}.",
        p.task, p.id, p.outcome, p.finished_at, p.done_line, p.archive
    )
}

/// The task this working tree ended last, read from the archive
/// directories (the common git directory's, then the one an older
/// majordomus kept in the worktree), when it ended other than `completed`
/// with questions open. An archive that cannot be read is passed over: it
/// can tell nothing.
pub fn previous(archive_dirs: &[PathBuf], root: &Path) -> Option<PreviousTask> {
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
        // An archive kept for several working trees names the one it was made in.
        if doc.get("root").and_then(|r| r.as_str()).is_some_and(|r| Path::new(r) != root) {
            continue;
        }
        let Some(at) = doc.get("finished_at").and_then(|f| f.as_str()).map(str::to_string) else { continue };
        if latest.as_ref().map_or(true, |(then, _, _)| at > *then) {
            latest = Some((at, doc, path.display().to_string()));
        }
    }
    let (finished_at, doc, archive) = latest?;
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
        assert_eq!(previous(&dirs, dir.path()), None);
        archive(dir.path(), "a", "partial", "2026-11-30T10:00:00Z", "done: committed=owed");
        archive(dir.path(), "b", "failed", "2026-11-30T11:00:00Z", "done: pushed=owed");
        let p = previous(&dirs, dir.path()).expect("previous");
        assert_eq!((p.id.as_str(), p.outcome.as_str(), p.done_line.as_str()), ("b", "failed", "done: pushed=owed"));
        assert!(sentence(&p).contains("\"task b\" (b) ended failed"), "{}", sentence(&p));
        archive(dir.path(), "c", "completed", "2026-11-30T12:00:00Z", "done: complete (19 pass, 0 exempt)");
        assert_eq!(previous(&dirs, dir.path()), None);
    }
}
