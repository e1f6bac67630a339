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
//!
//! Every file here is reached from the common git directory without
//! following a symbolic link ([`majordomus_records::confined`]): a link at
//! `majordomus/`, `carry.lock` or `carry-history.jsonl` is refused, naming
//! it, and nothing is written through it. The lock is the one lock helper
//! ([`majordomus_records::lock`]); the history is appended a whole line at a
//! time ([`majordomus_records::lines`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use majordomus_records::confined::{self, Dir, Perm, PlaceError};
use majordomus_records::lines::AppendError;
use majordomus_records::lock::{self, LockError};

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::invocation::Invocation;
use crate::owner::Owner;
use crate::record::CarryRecord;

/// The record, relative to the common git directory.
pub const RECORD: &str = "majordomus/carry.json";
/// The lock every write holds.
pub const LOCK: &str = "majordomus/carry.lock";
/// One line per ended record: what the run had spent, and why it stopped.
pub const HISTORY: &str = "majordomus/carry-history.jsonl";

/// The directory of the files above, in the common git directory.
const DIR: &str = "majordomus";

/// The name of `path` (one of the constants above) within [`DIR`].
fn name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

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
    #[error("cannot lock the carry record")]
    Lock(#[from] LockError),
    #[error("cannot write the carry record {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: PlaceError,
    },
    #[error("cannot remove the carry record {}", path.display())]
    Remove {
        path: PathBuf,
        #[source]
        source: PlaceError,
    },
    #[error("cannot append to the carry history")]
    History(#[from] AppendError),
}

impl StoreError {
    /// Whether a symbolic link was refused where the record, its lock or
    /// its history goes: the request is refused as given (exit 2, naming
    /// the link), not a record out of reach. Anything else that is not a
    /// file there (a directory at the lock) leaves the record out of reach:
    /// `unknown`.
    pub fn is_refusal(&self) -> bool {
        match self {
            StoreError::Lock(LockError::Place(e))
            | StoreError::Write { source: e, .. }
            | StoreError::Remove { source: e, .. }
            | StoreError::History(AppendError::Place(e)) => matches!(e, PlaceError::Link { .. }),
            _ => false,
        }
    }
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
        use majordomus_records::json::{self, Failure};
        let path = self.record_path();
        match json::load::<CarryRecord>(&path) {
            Ok(None) => Loaded::Absent,
            Ok(Some(record)) => match record.invocation() {
                Ok(invocation) => Loaded::Present(Box::new((record, invocation))),
                Err(reason) => Loaded::Unreadable(format!("{} is not a carry record: {reason}", path.display())),
            },
            Err(Failure::Malformed(reason)) => {
                Loaded::Unreadable(format!("{} is not a carry record: {reason}", path.display()))
            }
            Err(Failure::Io(e)) => Loaded::Unreadable(format!("{}: {e}", path.display())),
        }
    }

    /// The directory of the record, its lock and its history, reached
    /// without following a link; created when missing.
    fn dir(&self) -> Result<Dir, PlaceError> {
        confined::open_dir(&self.common_dir, Path::new(DIR), true)
    }

    /// Takes the exclusive lock, waiting up to `wait` for another writer.
    pub fn lock(&self, wait: Duration) -> Result<Locked<'_>, StoreError> {
        let dir = self.dir().map_err(LockError::Place)?;
        let held = lock::exclusive(&dir, name(LOCK), wait)?;
        Ok(Locked { store: self, dir, _held: held })
    }
}

/// The store while this process holds the lock; writes need one.
#[derive(Debug)]
pub struct Locked<'a> {
    store: &'a Store,
    dir: Dir,
    /// Dropping it releases the lock.
    _held: lock::Held,
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
        self.dir
            .replace(name(RECORD), &record.to_json(), Perm::Private)
            .map_err(|source| StoreError::Write { path: self.store.record_path(), source })
    }

    pub fn remove(&self) -> Result<(), StoreError> {
        self.dir
            .remove(name(RECORD))
            .map(|_| ())
            .map_err(|source| StoreError::Remove { path: self.store.record_path(), source })
    }

    /// The newest record the history says ended that `caller`'s process
    /// owned, of `invocation`: `Ok(None)` where there is none (or no
    /// history); the reason where the history cannot be read. A line that
    /// does not parse (one torn by a write cut short) says nothing.
    pub fn ended_by(&self, caller: &Owner, invocation: &Invocation) -> Result<Option<CarryRecord>, String> {
        #[derive(serde::Deserialize)]
        struct Line {
            record: Option<CarryRecord>,
        }
        let path = self.store.history_path();
        let bytes = match majordomus_records::regular::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        Ok(bytes
            .split(|b| *b == b'\n')
            .rev()
            .filter_map(|line| serde_json::from_slice::<Line>(line).ok()?.record)
            .find(|r| r.invocation == invocation.as_str() && crate::owner::same_process(&r.owner, caller)))
    }

    /// Appends one line saying what an ended record held and why it ended.
    pub fn append_history(&self, loaded: &Loaded, stopped: Option<&str>, now: DateTime<Utc>) -> Result<(), StoreError> {
        let (record, unreadable) = match loaded {
            Loaded::Absent => return Ok(()),
            Loaded::Unreadable(reason) => (None, Some(reason.as_str())),
            Loaded::Present(found) => (Some(&found.0), None),
        };
        let line = Ended { ended_at: now, stopped, record, unreadable };
        // A struct of strings, integers and a record always serializes.
        let mut bytes = serde_json::to_vec(&line).unwrap_or_default();
        bytes.push(b'\n');
        let whole = |tail: &[u8]| serde_json::from_slice::<serde_json::Value>(tail).is_ok();
        majordomus_records::lines::append_locked(&self.dir, name(HISTORY), &bytes, whole)?;
        Ok(())
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
        assert!(matches!(second, Err(StoreError::Lock(LockError::Busy { .. }))), "{second:?}");
        drop(held);
        store.lock(Duration::from_millis(50)).expect("free again once the first is done");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_at_the_directory_the_lock_or_the_history_is_refused_and_nothing_is_written_through_it() {
        for planted in [DIR, LOCK, HISTORY] {
            let dir = tempfile::tempdir().expect("tempdir");
            let outside = tempfile::tempdir().expect("tempdir");
            if planted != DIR {
                std::fs::create_dir_all(dir.path().join(DIR)).expect("mkdir");
            }
            let target = if planted == DIR { outside.path().to_path_buf() } else { outside.path().join("made") };
            std::os::unix::fs::symlink(&target, dir.path().join(planted)).expect("plant");
            let store = Store::in_common_dir(dir.path());
            let err = store.lock(LOCK_WAIT).and_then(|locked| {
                let record: Loaded = Loaded::Unreadable("x".into());
                locked.append_history(&record, Some("why"), Utc::now())
            });
            let err = err.expect_err(planted);
            assert!(err.is_refusal(), "{planted}: {err:?}");
            let said = majordomus_records::task::error_chain(&err);
            assert!(said.contains(&format!("{planted} is a symbolic link")), "{said}");
            assert_eq!(std::fs::read_dir(outside.path()).expect("list").count(), 0, "{planted}: written outside");
        }
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
