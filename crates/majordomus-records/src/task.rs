//! The task record: where a piece of work started, and what the repository
//! already held at that moment.
//!
//! Everything a question later calls *inherited* comes from the start
//! snapshot kept here. A record that cannot be read is a state of its own
//! ([`TaskState::Unreadable`]): the questions that need it answer `unknown`
//! with the reason, they never fall back to guessing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use crate::reading_at_start::{Bit, Content, FileAtStart, ReadingAtStart};
use crate::RepoPath;

/// The schema string every task record carries.
pub const TASK_SCHEMA: &str = "majordomus/task/v1";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskRecord {
    pub schema: String,
    pub id: String,
    pub task: String,
    #[serde(default)]
    pub scope: Vec<String>,
    #[serde(default)]
    pub issues: Vec<String>,
    /// RFC 3339, UTC. Kept as written: a value that does not parse makes
    /// the questions that date things `unknown`, not the whole record.
    pub started_at: String,
    /// The start commit; `None` when HEAD was unborn.
    pub head: Option<String>,
    /// The branch checked out at the start; `None` when HEAD was detached.
    pub branch: Option<String>,
    #[serde(default)]
    pub snapshot: Snapshot,
    /// The process that started the task (the parent of `majordomus start`),
    /// so `sweep` can tell a task whose owner is gone from one still worked on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Owner>,
}

/// A process, named so that a reused pid is not mistaken for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owner {
    pub pid: u32,
    /// Its start time in clock ticks since boot (`/proc/PID/stat` field 22);
    /// `None` where that could not be read.
    pub start_time: Option<u64>,
}

/// What the repository held at the start. Each part is optional so that a
/// record written without it says so instead of claiming an empty set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Tracked paths that differed from HEAD at the start, with content ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dirty: Option<Vec<DirtyPath>>,
    /// Untracked, non-ignored paths at the start, with content ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untracked: Option<Vec<UntrackedPath>>,
    /// Local branches and the commit each pointed at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branches: Option<BTreeMap<String, String>>,
    /// Linked worktrees by name, with their paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktrees: Option<BTreeMap<String, String>>,
    /// Stash entries (commit ids), newest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stashes: Option<Vec<String>>,
    /// Commits on HEAD that were not on its upstream (or the trunk).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unpushed: Option<Vec<String>>,
    /// Debt baselines by repository-relative path: their entries, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baselines: Option<BTreeMap<String, Vec<String>>>,
    /// What governed the reading of the working tree: the configuration,
    /// ignore rules and index bits by which `check` reads it as the start
    /// would have (`None`: a record written before majordomus kept them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<ReadingAtStart>,
}

/// A path, in JSON as [`RepoPath`] writes it (lossless for a path that is
/// not UTF-8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirtyPath {
    pub path: RepoPath,
    /// The blob staged in the index, if any.
    pub index: Option<String>,
    /// The blob id of the working-tree content, `None` when deleted.
    pub worktree: Option<String>,
    /// The working-tree file's mode as git would record it (`0o100755`,
    /// ...); `None` when deleted, or in a record written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UntrackedPath {
    pub path: RepoPath,
    pub worktree: Option<String>,
    /// As [`DirtyPath::mode`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
}

impl TaskRecord {
    /// The parsed start time, or the reason it cannot be read.
    pub fn started_at(&self) -> Result<chrono::DateTime<chrono::Utc>, String> {
        chrono::DateTime::parse_from_rfc3339(&self.started_at)
            .map(|t| t.with_timezone(&chrono::Utc))
            .map_err(|e| format!("the task record's started_at {:?} is not RFC 3339 ({e})", self.started_at))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    #[error("cannot read the task record {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the task record {} is not a majordomus task record: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
    #[error("cannot write the task record {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What the task record file says, including that it says nothing usable.
#[derive(Debug, Clone)]
pub enum TaskState {
    None,
    Active(Box<TaskRecord>),
    /// The file exists but cannot be read as a task record; the reason says why.
    Unreadable(String),
}

impl TaskState {
    pub fn load(path: &Path) -> Self {
        match TaskRecord::load(path) {
            Ok(Some(record)) => TaskState::Active(Box::new(record)),
            Ok(None) => TaskState::None,
            Err(e) => TaskState::Unreadable(error_chain(&e)),
        }
    }

    pub fn record(&self) -> Option<&TaskRecord> {
        match self {
            TaskState::Active(r) => Some(r),
            _ => None,
        }
    }
}

impl TaskRecord {
    /// Reads the record; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Self>, TaskError> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(TaskError::Io { path: path.into(), source }),
        };
        let record: TaskRecord = serde_json::from_slice(&bytes)
            .map_err(|e| TaskError::Malformed { path: path.into(), reason: e.to_string() })?;
        if record.schema != TASK_SCHEMA {
            return Err(TaskError::Malformed {
                path: path.into(),
                reason: format!("its schema is {:?}, expected {TASK_SCHEMA:?}", record.schema),
            });
        }
        Ok(Some(record))
    }

    pub fn save(&self, path: &Path) -> Result<(), TaskError> {
        let mut bytes = serde_json::to_vec_pretty(self)
            .map_err(|e| TaskError::Write { path: path.into(), source: std::io::Error::other(e) })?;
        bytes.push(b'\n');
        crate::write_atomic(path, &bytes).map_err(|source| TaskError::Write { path: path.into(), source })
    }
}

/// An error and its sources on one line, each cause once.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TaskRecord {
        TaskRecord {
            schema: TASK_SCHEMA.into(),
            id: "t-1".into(),
            task: "fix the parser".into(),
            scope: vec!["src/parser".into()],
            issues: vec![],
            started_at: "2026-11-30T10:00:00Z".into(),
            head: None,
            branch: Some("main".into()),
            snapshot: Snapshot::default(),
            owner: Some(Owner { pid: 42, start_time: Some(7) }),
        }
    }

    #[test]
    fn a_record_round_trips_through_its_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("task.json");
        sample().save(&path).expect("save");
        assert_eq!(TaskRecord::load(&path).expect("load"), Some(sample()));
    }

    #[test]
    fn a_missing_record_is_no_task_and_a_truncated_one_is_unreadable() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("task.json");
        assert!(matches!(TaskState::load(&path), TaskState::None));
        std::fs::write(&path, br#"{"schema": "majordomus/task/v1", "id": "#).expect("write");
        match TaskState::load(&path) {
            TaskState::Unreadable(reason) => assert!(reason.contains("not a majordomus task record"), "{reason}"),
            other => panic!("expected unreadable, got {other:?}"),
        }
    }

    #[test]
    fn a_foreign_json_file_is_unreadable_not_a_task() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("task.json");
        let mut foreign = serde_json::to_value(sample()).expect("value");
        foreign["schema"] = "someone-else/v3".into();
        std::fs::write(&path, foreign.to_string()).expect("write");
        match TaskState::load(&path) {
            TaskState::Unreadable(reason) => assert!(reason.contains("someone-else/v3"), "{reason}"),
            other => panic!("expected unreadable, got {other:?}"),
        }
    }

    #[test]
    fn a_start_time_that_is_not_rfc3339_is_an_error_of_its_own() {
        let mut r = sample();
        assert!(r.started_at().is_ok());
        r.started_at = "yesterday".into();
        assert!(r.started_at().expect_err("not a time").contains("yesterday"));
    }
}
