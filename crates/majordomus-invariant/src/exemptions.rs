//! The policy's exemptions as they stood at the task's start: read from the
//! start commit's tree (the blob of `.ai/repo/majordomus.toml` there), so an
//! exemption the task added to its own policy is seen for what it is.
//!
//! An exemption keeps exempting wherever it came from (a repository with no
//! forge is told to add one); what changes is that one added since the start
//! says so. Whether an exemption is new is [`crate::done`]'s to judge.

use std::path::Path;

use majordomus_readings::{Reading, Repo, Unread};
use majordomus_records::paths::POLICY_FILE;
use majordomus_records::policy::{Exemption, Policy};
use majordomus_records::task::TaskState;

/// The exemptions of the policy at the task's start. `Ok(None)`: there is
/// no task record, so no start to compare with. `Ok(Some(empty))` when the
/// start had no commit, no policy file, or one that does not parse (every
/// exemption then counts as new).
pub fn at_start(repo: &Repo, task: &TaskState) -> Reading<Option<Vec<Exemption>>> {
    let Some(record) = task.record() else { return Ok(None) };
    let Some(start) = record.head.as_deref() else { return Ok(Some(Vec::new())) };
    let oid = git2::Oid::from_str(start).map_err(|e| Unread::git(&format!("commit id {start}"), &e))?;
    let commit = repo.git.find_commit(oid).map_err(|_| Unread::start_commit_missing(start))?;
    let tree = commit.tree().map_err(|e| Unread::git(&format!("the tree of {start}"), &e))?;
    let entry = match tree.get_path(Path::new(POLICY_FILE)) {
        Ok(entry) => entry,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(Some(Vec::new())),
        Err(e) => return Err(Unread::git(&format!("{POLICY_FILE} in the start commit {start}"), &e)),
    };
    let Ok(blob) = entry.to_object(&repo.git).and_then(|o| o.peel_to_blob()) else { return Ok(Some(Vec::new())) };
    let Ok(text) = std::str::from_utf8(blob.content()) else { return Ok(Some(Vec::new())) };
    let builtin: Vec<&str> = crate::QUESTIONS.iter().map(|q| q.id).collect();
    Ok(Some(Policy::parse(Path::new(POLICY_FILE), text, &builtin).map(|p| p.exempt).unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use majordomus_records::task::{Snapshot, TaskRecord, TASK_SCHEMA};
    use majordomus_testkit::TestRepo;

    use super::*;

    fn task(head: Option<String>) -> TaskState {
        TaskState::Active(Box::new(TaskRecord {
            schema: TASK_SCHEMA.into(),
            id: "t".into(),
            task: "work".into(),
            scope: vec![],
            issues: vec![],
            started_at: "2026-11-30T00:00:00Z".into(),
            head,
            branch: Some("main".into()),
            snapshot: Snapshot::default(),
            owner: None,
        }))
    }

    const EXEMPT: &str = "[[exempt]]\nquestion = \"pushed\"\nreason = \"no remote\"\n";

    #[test]
    fn the_exemptions_are_read_from_the_start_commit_not_the_working_tree() {
        let t = TestRepo::with_commit();
        t.write(POLICY_FILE, EXEMPT);
        t.commit_all("policy");
        let start = t.head();
        t.write(POLICY_FILE, &format!("{EXEMPT}\n[[exempt]]\nquestion = \"committed\"\nreason = \"later\"\n"));
        t.commit_all("exempt more");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let then = at_start(&repo, &task(Some(start))).expect("read").expect("a start");
        assert_eq!(then.len(), 1);
        assert_eq!((then[0].question.as_str(), then[0].reason.as_str()), ("pushed", "no remote"));
        assert_eq!(at_start(&repo, &TaskState::None).expect("read"), None);
    }

    #[test]
    fn no_policy_an_unparsable_one_or_no_commit_at_the_start_holds_no_exemption() {
        let t = TestRepo::with_commit();
        let repo = majordomus_readings::open(t.path()).expect("open");
        assert_eq!(at_start(&repo, &task(Some(t.head()))).expect("read"), Some(vec![]));
        assert_eq!(at_start(&repo, &task(None)).expect("read"), Some(vec![]));
        t.write(POLICY_FILE, &format!("{EXEMPT}\n[nonsense]\nx = 1\n"));
        t.commit_all("a bad policy");
        let repo = majordomus_readings::open(t.path()).expect("open");
        assert_eq!(at_start(&repo, &task(Some(t.head()))).expect("read"), Some(vec![]));
        let missing = "0123456789012345678901234567890123456789".to_string();
        let err = at_start(&repo, &task(Some(missing))).expect_err("unread");
        assert!(err.reason.contains("is not in this repository"), "{err}");
    }
}
