//! The agent stop hook's loop guard, one record per host, session and agent
//! under `.ai/local/state/hook/`: how many times in a row the hook has
//! blocked that agent's stop for the current task, and what it saw at the
//! last block.
//!
//! A stop hook that blocks on something the agent cannot settle would block
//! forever, and each block spends one of the agent's turns. The count kept
//! here is what lets the hook end that loop: past the policy's
//! `[hook] block_limit`, or when the agent comes back having changed nothing
//! since the last block, the hook lets the stop through and says what is
//! still owed. "Nothing changed" is the same done line, the same HEAD and
//! index (`fingerprint`) and the same working tree at the paths the
//! invariant found dirty or untracked (`worktree`); a record without
//! `worktree` (written before it was kept) reads as changed. The record
//! belongs to one task: a record naming another task counts as no blocks
//! at all.
//!
//! A record is written only when it changes what the next stop decides: a
//! stop that counts no block, where the record already counts none for the
//! task, leaves it as it is (with no block counted, nothing else in it is
//! compared), so its `done_line`, `fingerprint`, `worktree` and `at` are
//! those of the last stop that changed the count.
//!
//! Each agent has a guard of its own ([`HookKey`]: the host, the session,
//! the subagent), so a Codex stop is not let through because a Claude Code
//! stop was blocked before, and parallel subagents do not share one count.
//!
//! Schema `majordomus/hook/v1`:
//!
//! ```json
//! {
//!   "schema": "majordomus/hook/v1",
//!   "task": "20261130T100000Z-1a2b",
//!   "blocks": 2,
//!   "done_line": "done: committed=owed pushed=owed",
//!   "fingerprint": "head=… index=…",
//!   "worktree": "3f9c0a7d1e2b4c5a",
//!   "host": "claude",
//!   "session_id": "abc123",
//!   "agent_id": "a41d7c",
//!   "at": "2026-11-30T10:05:00Z"
//! }
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub const HOOK_SCHEMA: &str = "majordomus/hook/v1";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookState {
    pub schema: String,
    /// The task the count belongs to.
    pub task: String,
    /// Consecutive blocks for that task; 0 after the hook let a stop through.
    pub blocks: u32,
    /// The done line at the last verdict.
    pub done_line: String,
    /// HEAD and the index at the last verdict (`None`: they could not be read).
    pub fingerprint: Option<String>,
    /// A hash of the working tree at the paths found dirty or untracked at
    /// the last verdict (`None`: not measured, or a record from before it
    /// was kept; either way, not comparable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree: Option<String>,
    /// The host whose agent this guard counts for (`claude`, `codex`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The agent session, as the host named it.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The subagent, as the host named it (`None`: the session's main agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// RFC 3339, UTC: when the record was last written.
    pub at: String,
}

/// Whose stops one guard counts: a host, a session, and the subagent within
/// it (`None`: the main agent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookKey {
    pub host: String,
    pub session_id: Option<String>,
    pub agent_id: Option<String>,
}

impl HookKey {
    /// The guard's file name: the host, whether a subagent, and a hash of
    /// the session and agent ids (which a host names freely, so they are
    /// never used as a path themselves).
    pub fn file_name(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let parts = [self.session_id.as_deref(), self.agent_id.as_deref()];
        for part in parts {
            // A tag per part, so (None, "x") and ("x", None) differ.
            let bytes = part.map_or(&[0u8][..], str::as_bytes);
            for b in [&[part.is_some() as u8][..], bytes, &[0xff]].concat() {
                hash ^= u64::from(b);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        let host: String = self.host.chars().filter(|c| c.is_ascii_alphanumeric()).take(16).collect();
        let who = if self.agent_id.is_some() { "subagent" } else { "main" };
        format!("{host}-{who}-{hash:016x}.json")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HookStateError {
    #[error("cannot read the hook record {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the hook record {} is not a majordomus hook record: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
}

impl HookState {
    /// Reads the record; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Self>, HookStateError> {
        crate::json::load(path).map_err(|failure| match failure {
            crate::json::Failure::Io(source) => HookStateError::Io { path: path.into(), source },
            crate::json::Failure::Malformed(reason) => HookStateError::Malformed { path: path.into(), reason },
        })
    }

    /// Consecutive blocks this record holds for `task` (none for another task).
    pub fn blocks_for(&self, task: &str) -> u32 {
        if self.task == task {
            self.blocks
        } else {
            0
        }
    }

    /// The record as pretty JSON with a final newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }
}

impl crate::json::Record for HookState {
    const SCHEMA: &'static str = HOOK_SCHEMA;
    const MAX_BYTES: u64 = 1 << 20;
    fn schema(&self) -> &str {
        &self.schema
    }
    fn check(&self) -> Result<(), String> {
        use crate::text::{check_len, MAX_FIELD};
        check_len("task", &self.task, crate::task::MAX_ID)?;
        check_len("done_line", &self.done_line, 64 << 10)?;
        check_len("at", &self.at, 64)?;
        [&self.fingerprint, &self.worktree, &self.host, &self.session_id, &self.agent_id]
            .into_iter()
            .flatten()
            .try_for_each(|v| check_len("fingerprint, worktree, host, session_id or agent_id", v, MAX_FIELD))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> HookState {
        HookState {
            schema: HOOK_SCHEMA.into(),
            task: "t-1".into(),
            blocks: 2,
            done_line: "done: committed=owed".into(),
            fingerprint: Some("head=a index=b".into()),
            worktree: Some("0123456789abcdef".into()),
            host: Some("claude".into()),
            session_id: Some("s".into()),
            agent_id: None,
            at: "2026-11-30T10:00:00Z".into(),
        }
    }

    #[test]
    fn a_record_round_trips_and_a_missing_one_is_none() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("hook.json");
        assert_eq!(HookState::load(&path).expect("missing"), None);
        crate::write_atomic(dir.path(), &path, &sample().to_bytes()).expect("write");
        assert_eq!(HookState::load(&path).expect("load"), Some(sample()));
    }

    #[test]
    fn a_record_written_before_the_worktree_was_kept_still_loads_without_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("hook.json");
        let old = r#"{"schema": "majordomus/hook/v1", "task": "t-1", "blocks": 1, "done_line": "done: committed=owed",
            "fingerprint": "head=a index=b", "session_id": null, "at": "2026-11-30T10:00:00Z"}"#;
        std::fs::write(&path, old).expect("write");
        let loaded = HookState::load(&path).expect("load").expect("a record");
        assert_eq!((loaded.blocks, loaded.worktree), (1, None));
    }

    #[test]
    fn blocks_counted_for_another_task_are_not_this_tasks() {
        assert_eq!(sample().blocks_for("t-1"), 2);
        assert_eq!(sample().blocks_for("t-2"), 0);
    }

    #[test]
    fn each_host_session_and_agent_has_a_guard_file_of_its_own() {
        let key = |host: &str, s: Option<&str>, a: Option<&str>| HookKey {
            host: host.into(),
            session_id: s.map(Into::into),
            agent_id: a.map(Into::into),
        };
        let names = [
            key("claude", Some("s1"), None),
            key("codex", Some("s1"), None),
            key("claude", Some("s2"), None),
            key("claude", Some("s1"), Some("a1")),
            key("claude", Some("s1"), Some("a2")),
            key("claude", None, Some("s1")),
            key("claude", None, None),
            key("claude", Some(""), None),
        ]
        .map(|k| k.file_name());
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{names:?}");
        assert_eq!(key("claude", Some("s1"), None).file_name(), key("claude", Some("s1"), None).file_name());
        assert!(names[0].starts_with("claude-main-") && names[3].starts_with("claude-subagent-"), "{names:?}");
        let odd = key("../x y", Some("../../etc"), Some("/")).file_name();
        assert!(odd.starts_with("xy-subagent-") && !odd.contains('/'), "{odd}");
    }

    #[test]
    fn a_foreign_file_is_malformed_not_an_empty_count() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("hook.json");
        std::fs::write(&path, b"{\"schema\": \"other/v1\"}").expect("write");
        assert!(HookState::load(&path).is_err());
    }
}
