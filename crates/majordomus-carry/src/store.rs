//! Where the record lives, and the lock every write holds.
//!
//! The record is the repository's, not a worktree's: a run's sessions may
//! each start in a different linked worktree, and all of them must find the
//! one budget. So it lives in the common git directory, beside the objects
//! every worktree shares: `<commondir>/majordomus/carry.json`.
//!
//! Every change is a read-modify-write under an exclusive `flock` on
//! `carry.lock`, and the write itself is atomic (a temporary file renamed
//! over the record). Two `begin`s at once are therefore serialized: the
//! second reads the record the first wrote and answers `busy`; there are
//! never two owners. The lock is the kernel's and dies with its holder, so a
//! crashed writer leaves no stale lock to wedge the next one; the lock file
//! itself is kept (removing a file others may be waiting on would let two
//! holders in). Readers (`show`, `budget`) take no lock: a rename is atomic,
//! so they see a whole record, old or new.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::invocation::Invocation;
use crate::record::CarryRecord;

/// The record, relative to the common git directory.
pub const RECORD: &str = "majordomus/carry.json";
/// The lock every write holds.
pub const LOCK: &str = "majordomus/carry.lock";
/// One line per ended record: what the run had spent, and why it stopped.
pub const HISTORY: &str = "majordomus/carry-history.jsonl";

/// How long a writer waits for another to finish before giving up.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct Store {
    common_dir: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum LocateError {
    #[error("the git directory of {} cannot be read: {reason}", path.display())]
    NotARepository { path: PathBuf, reason: String },
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the carry lock {}", path.display())]
    OpenLock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the carry record is still locked by another writer after {waited:?} ({})", path.display())]
    Locked { path: PathBuf, waited: Duration },
    #[error("cannot lock the carry record {}", path.display())]
    Lock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write the carry record {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot remove the carry record {}", path.display())]
    Remove {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot append to the carry history {}", path.display())]
    History {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What the record's file holds, before its owner is judged.
#[derive(Debug, Clone)]
pub enum Loaded {
    Absent,
    Unreadable(String),
    Present(Box<(CarryRecord, Invocation)>),
}

impl Store {
    /// The store of the repository containing `dir`, found as git would
    /// (without reading `GIT_DIR` or other environment overrides).
    pub fn discover(dir: &Path) -> Result<Self, LocateError> {
        let repo = git2::Repository::discover(dir)
            .map_err(|e| LocateError::NotARepository { path: dir.into(), reason: e.message().to_string() })?;
        Ok(Self::in_common_dir(repo.commondir()))
    }

    /// The store in a given common git directory.
    pub fn in_common_dir(common_dir: &Path) -> Self {
        Self { common_dir: common_dir.to_path_buf() }
    }

    pub fn record_path(&self) -> PathBuf {
        self.common_dir.join(RECORD)
    }

    pub fn lock_path(&self) -> PathBuf {
        self.common_dir.join(LOCK)
    }

    pub fn history_path(&self) -> PathBuf {
        self.common_dir.join(HISTORY)
    }

    /// Reads the record. Any failure to read it is [`Loaded::Unreadable`]
    /// with the reason, never [`Loaded::Absent`].
    pub fn read(&self) -> Loaded {
        let path = self.record_path();
        match std::fs::read(&path) {
            Ok(bytes) => match CarryRecord::from_slice(&bytes) {
                Ok(found) => Loaded::Present(Box::new(found)),
                Err(reason) => Loaded::Unreadable(format!("{} is not a carry record: {reason}", path.display())),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Loaded::Absent,
            Err(e) => Loaded::Unreadable(format!("{}: {e}", path.display())),
        }
    }

    /// Takes the exclusive lock, waiting up to `wait` for another writer.
    pub fn lock(&self, wait: Duration) -> Result<Locked<'_>, StoreError> {
        let path = self.lock_path();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::OpenLock { path: path.clone(), source })?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| StoreError::OpenLock { path: path.clone(), source })?;
        let started = Instant::now();
        loop {
            // Called through the trait: std's own `File::try_lock` is newer
            // than this workspace's minimum Rust.
            match fs4::FileExt::try_lock(&file) {
                Ok(()) => return Ok(Locked { store: self, _file: file }),
                Err(fs4::TryLockError::WouldBlock) if started.elapsed() < wait => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(fs4::TryLockError::WouldBlock) => return Err(StoreError::Locked { path, waited: wait }),
                Err(fs4::TryLockError::Error(source)) => return Err(StoreError::Lock { path, source }),
            }
        }
    }
}

/// The store while this process holds the lock; writes need one.
#[derive(Debug)]
pub struct Locked<'a> {
    store: &'a Store,
    /// Closing the file releases the lock.
    _file: File,
}

#[derive(Serialize)]
struct Ended<'r> {
    ended_at: DateTime<Utc>,
    stopped: Option<&'r str>,
    record: Option<&'r CarryRecord>,
    unreadable: Option<&'r str>,
}

impl Locked<'_> {
    pub fn read(&self) -> Loaded {
        self.store.read()
    }

    pub fn save(&self, record: &CarryRecord) -> Result<(), StoreError> {
        let path = self.store.record_path();
        majordomus_records::write_atomic(&path, &record.to_json()).map_err(|source| StoreError::Write { path, source })
    }

    pub fn remove(&self) -> Result<(), StoreError> {
        let path = self.store.record_path();
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(StoreError::Remove { path, source }),
        }
    }

    /// Appends one line saying what an ended record held and why it ended.
    pub fn append_history(&self, loaded: &Loaded, stopped: Option<&str>, now: DateTime<Utc>) -> Result<(), StoreError> {
        let (record, unreadable) = match loaded {
            Loaded::Absent => return Ok(()),
            Loaded::Unreadable(reason) => (None, Some(reason.as_str())),
            Loaded::Present(found) => (Some(&found.0), None),
        };
        let path = self.store.history_path();
        let line = Ended { ended_at: now, stopped, record, unreadable };
        let mut bytes =
            serde_json::to_vec(&line).map_err(|e| StoreError::History { path: path.clone(), source: e.into() })?;
        bytes.push(b'\n');
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(&bytes))
            .map_err(|source| StoreError::History { path, source })
    }
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    use super::*;

    #[test]
    fn every_worktree_of_a_repository_finds_the_one_record() {
        let repo = TestRepo::with_commit();
        let elsewhere = tempfile::tempdir().expect("tempdir");
        let linked = elsewhere.path().join("linked");
        repo.git(&["worktree", "add", "-q", linked.to_str().expect("utf8"), "-b", "side"]);
        let main = Store::discover(repo.path()).expect("main");
        let side = Store::discover(&linked).expect("linked");
        let canon = |p: PathBuf| p.parent().and_then(|d| d.canonicalize().ok());
        assert_eq!(canon(main.record_path()), canon(side.record_path()));
        assert!(main.record_path().ends_with("majordomus/carry.json"));
    }

    #[test]
    fn a_directory_outside_any_repository_cannot_be_located() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(Store::discover(dir.path()).is_err());
    }

    #[test]
    fn a_second_writer_waits_for_the_first_and_gives_up_after_the_wait() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::in_common_dir(dir.path());
        let held = store.lock(LOCK_WAIT).expect("first");
        let second = store.lock(Duration::from_millis(50));
        assert!(matches!(second, Err(StoreError::Locked { .. })), "{second:?}");
        drop(held);
        store.lock(Duration::from_millis(50)).expect("free again once the first is done");
    }

    #[test]
    fn a_missing_record_is_absent_and_a_broken_one_is_unreadable() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::in_common_dir(dir.path());
        assert!(matches!(store.read(), Loaded::Absent));
        std::fs::create_dir_all(dir.path().join("majordomus")).expect("dir");
        std::fs::write(store.record_path(), "{").expect("write");
        assert!(matches!(store.read(), Loaded::Unreadable(_)));
    }
}
