//! What the remote-tracking refs and local branches held at the start,
//! kept for the task.
//!
//! [`super::held_at_start`] walks every remote-tracking ref the start
//! recorded, hiding the start commit: each remote branch's history down to
//! where it left the trunk. A long-lived branch (a release line that left
//! the trunk thousands of commits ago) makes that walk most of a check,
//! and it is asked at every check after a fetch (bench/README.md: 5,000
//! trunk commits and eight tracked branches, 8 ms a check become 31). Yet
//! its answer depends on nothing but the task record: the refs and the
//! start commit the start recorded, which no command changes. So it is
//! walked once per task and kept in `.ai/local/state/held-at-start.cache`,
//! keyed by the task's id, its start commit and a digest of the refs, and
//! read back while the key is the same. As every cache here: written
//! atomically through the state directory's confined writer, only where
//! the state directory exists; a file that cannot be read, is damaged or
//! keyed otherwise is ignored (the walk is made again), so it can cost
//! time, never an answer.

use std::collections::HashSet;
use std::io::Read as _;
use std::path::Path;

use git2::Oid;
use majordomus_records::confined::Perm;
use majordomus_records::task::TaskRecord;
use majordomus_records::StatePaths;

use crate::{Reading, Repo};

/// The cache file's name in the state directory.
pub const FILE: &str = "held-at-start.cache";

/// The file's first line. The second is the key; the rest is the commits,
/// 20 bytes each, one after the other.
const SCHEMA: &str = "majordomus.held-at-start-cache/1";

/// The largest file read: [`super::WALKED`] commits and the two lines.
const MAX_BYTES: u64 = 20 * super::WALKED as u64 + 4096;

/// [`super::held_at_start`], through what an earlier check of this task
/// kept.
pub(super) fn read(repo: &Repo, record: &TaskRecord, start: Option<Oid>) -> Reading<HashSet<Oid>> {
    let key = key(record, start);
    if let Some(held) = load(repo.root(), &key) {
        return Ok(held);
    }
    let held = super::held_at_start(repo, record, start)?;
    store(repo.root(), &key, &held);
    Ok(held)
}

/// The task's id, its start commit and a digest (SHA-1) of every
/// remote-tracking ref and local branch the start recorded, by name and
/// commit.
fn key(record: &TaskRecord, start: Option<Oid>) -> String {
    use sha1::Digest as _;
    let mut digest = sha1::Sha1::new();
    let branches = record.snapshot.branches.iter().flat_map(|refs| refs.iter());
    for (name, commit) in record.snapshot.remote_refs.iter().flat_map(|refs| refs.iter()).chain(branches) {
        digest.update(name.as_bytes());
        digest.update([0]);
        digest.update(commit.as_bytes());
        digest.update([b'\n']);
    }
    let refs: String = digest.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let start = start.map_or_else(|| "none".to_string(), |s| s.to_string());
    format!("{} {start} {refs}", record.id)
}

/// The commits kept under `key`; `None` where the file is missing,
/// unreadable, damaged or kept under another key.
fn load(root: &Path, key: &str) -> Option<HashSet<Oid>> {
    let file = majordomus_records::regular::open(&StatePaths::new(root).state_dir().join(FILE)).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).ok()?;
    let rest = bytes.strip_prefix(SCHEMA.as_bytes())?.strip_prefix(b"\n")?;
    let rest = rest.strip_prefix(key.as_bytes())?.strip_prefix(b"\n")?;
    if rest.len() % 20 != 0 {
        return None;
    }
    rest.chunks_exact(20).map(|raw| Oid::from_bytes(raw).ok()).collect()
}

/// Keeps `held` under `key`, where the state directory exists.
fn store(root: &Path, key: &str, held: &HashSet<Oid>) {
    let mut ids: Vec<&Oid> = held.iter().collect();
    ids.sort();
    let mut bytes = Vec::with_capacity(SCHEMA.len() + key.len() + 2 + 20 * ids.len());
    bytes.extend_from_slice(SCHEMA.as_bytes());
    bytes.push(b'\n');
    bytes.extend_from_slice(key.as_bytes());
    bytes.push(b'\n');
    for id in ids {
        bytes.extend_from_slice(id.as_bytes());
    }
    if let Ok(dir) = StatePaths::new(root).open_state(false) {
        let _ = dir.replace_derived(FILE, &bytes, Perm::Private);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: u8) -> HashSet<Oid> {
        (1..=n).map(|i| Oid::from_bytes(&[i; 20]).expect("an id")).collect()
    }

    #[test]
    fn what_is_kept_is_read_back_under_its_key_only() {
        let root = tempfile::tempdir().expect("a directory");
        // No state directory: nothing is kept, nothing read.
        store(root.path(), "task-1 abc def", &ids(3));
        assert_eq!(load(root.path(), "task-1 abc def"), None);
        std::fs::create_dir_all(root.path().join(".ai/local/state")).expect("the state directory");
        store(root.path(), "task-1 abc def", &ids(3));
        assert_eq!(load(root.path(), "task-1 abc def"), Some(ids(3)));
        // Another task, another start or other refs: walked again.
        assert_eq!(load(root.path(), "task-2 abc def"), None);
        assert_eq!(load(root.path(), "task-1 abc de"), None);
        // Nothing held is kept as such, and read back as such.
        store(root.path(), "task-1 abc def", &HashSet::new());
        assert_eq!(load(root.path(), "task-1 abc def"), Some(HashSet::new()));
    }

    #[test]
    fn a_damaged_file_is_not_read() {
        let root = tempfile::tempdir().expect("a directory");
        let state = root.path().join(".ai/local/state");
        std::fs::create_dir_all(&state).expect("the state directory");
        let mut bytes = format!("{SCHEMA}\nk\n").into_bytes();
        bytes.extend_from_slice(&[7; 19]);
        std::fs::write(state.join(FILE), &bytes).expect("written");
        assert_eq!(load(root.path(), "k"), None, "a torn id");
        std::fs::write(state.join(FILE), b"majordomus.held-at-start-cache/0\nk\n").expect("written");
        assert_eq!(load(root.path(), "k"), None, "another schema");
    }
}
