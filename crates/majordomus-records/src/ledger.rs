//! The ledger, `.ai/local/state/ledger.jsonl`: append-only events (gate
//! runs, todos, claims, filings, background work, acknowledgements), one
//! JSON object a line.
//!
//! An append is one `write` of one whole line to a file opened with
//! `O_APPEND`: on a local file system two appenders finishing at once each
//! land a whole line, never an interleaving. A line that cannot be parsed
//! (a torn write from a crash, a hand edit) makes the ledger unreadable as a
//! whole for the readings that depend on it, rather than silently skipped.
//!
//! A writer that derives what it appends from what the ledger already holds
//! (the next todo number, whether an issue is already claimed) takes the
//! exclusive [`lock`] across the read and the append, so two writers at once
//! never both read the same ledger and append the same number.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// One line of the ledger.
///
/// The event is flattened into the line and internally tagged by `kind`.
/// serde_json is built without `arbitrary_precision` (with it, a float
/// inside a flattened, tagged type does not deserialize: serde-rs/json#721);
/// `hook install` keeps a settings file's numbers by editing its text
/// instead (apps/majordomus-cli/src/commands/hook/settings_text.rs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// RFC 3339, UTC.
    pub at: String,
    /// The task the event belongs to (`None`: no task was active).
    pub task: Option<String>,
    #[serde(flatten)]
    pub event: Event,
}

/// What happened. New kinds are added as variants; `kind` names them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A gate majordomus ran itself, and its verdict over the inputs it read.
    GateRun {
        gate: String,
        exit: i32,
        duration_ms: u64,
        /// HEAD when the run started (`None`: unborn).
        commit: Option<String>,
        /// The hash of the content of every input file when the run started.
        inputs_hash: String,
        #[serde(default)]
        timed_out: bool,
    },
    /// A todo declared for the task; `n` numbers it within the task.
    TodoAdd { n: u32, text: String },
    /// A declared todo done.
    TodoDone { n: u32 },
    /// An issue the task claimed (`N`, or `owner/repo#N` for another repository).
    Claim { issue: String },
    /// A claimed issue released.
    Release { issue: String },
    /// An issue the task filed.
    File { issue: String },
    /// Background work the task registered: the process and its start time
    /// (so a reused pid is not mistaken for it).
    Background { pid: u32, start_time: Option<u64>, what: Option<String> },
    /// A registration of background work withdrawn (`bg forget`): the
    /// process registered under `pid` no longer counts.
    BackgroundForget { pid: u32 },
    /// The background tasks an agent reported still running in its last stop
    /// hook input; the latest such entry replaces the earlier ones.
    AgentBackground { tasks: Vec<AgentTask> },
    /// The evidence a question holds now acknowledged as not this task's work,
    /// keyed to that exact set.
    Ack { question: String, why: String, evidence: Vec<String> },
}

/// One background task an agent reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentTask {
    pub id: String,
    #[serde(default)]
    pub description: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("cannot read the ledger {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: not a ledger entry: {reason}", path.display())]
    Malformed { path: PathBuf, line: usize, reason: String },
    #[error("cannot lock the ledger through {}", path.display())]
    Lock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "another majordomus command held the ledger lock {} for over {} s; try again once it is done (the lock ends with the process that holds it: never remove the file)",
        path.display(),
        waited.as_secs()
    )]
    Locked { path: PathBuf, waited: Duration },
}

/// The ledger's exclusive lock while this process holds it; dropping it
/// (closing the file) releases it.
#[derive(Debug)]
pub struct LedgerLock {
    _file: File,
}

/// The lock file beside the ledger at `ledger`: `ledger.lock`.
pub fn lock_path(ledger: &Path) -> PathBuf {
    ledger.with_file_name("ledger.lock")
}

/// Takes the ledger's exclusive lock (a lock on `ledger.lock` beside it),
/// waiting up to `wait` for another writer to let it go.
pub fn lock(ledger: &Path, wait: Duration) -> Result<LedgerLock, LedgerError> {
    let path = lock_path(ledger);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| LedgerError::Lock { path: path.clone(), source })?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|source| LedgerError::Lock { path: path.clone(), source })?;
    let started = Instant::now();
    loop {
        // Called through the trait: std's own `File::try_lock` is newer
        // than this workspace's minimum Rust.
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => return Ok(LedgerLock { _file: file }),
            Err(fs4::TryLockError::WouldBlock) if started.elapsed() < wait => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(fs4::TryLockError::WouldBlock) => return Err(LedgerError::Locked { path, waited: wait }),
            Err(fs4::TryLockError::Error(source)) => return Err(LedgerError::Lock { path, source }),
        }
    }
}

/// Reads every entry; a missing ledger is empty.
pub fn read(path: &Path) -> Result<Vec<Entry>, LedgerError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(LedgerError::Io { path: path.into(), source }),
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| LedgerError::Malformed {
                path: path.into(),
                line: i + 1,
                reason: e.to_string(),
            })
        })
        .collect()
}

/// Appends one entry as one whole line.
pub fn append(path: &Path, entry: &Entry) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut line = serde_json::to_vec(entry).map_err(std::io::Error::other)?;
    line.push(b'\n');
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    file.write_all(&line)?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With serde_json's `arbitrary_precision` (which this workspace must
    /// not turn on), a float inside a flattened, internally tagged type
    /// fails to deserialize: a ledger event could never hold one.
    #[test]
    fn a_float_in_a_flattened_tagged_event_reads_back() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "kind")]
        enum Kind {
            Timed { seconds: f64 },
        }
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Line {
            at: String,
            #[serde(flatten)]
            kind: Kind,
        }
        let line: Line =
            serde_json::from_str(r#"{"at":"t","kind":"Timed","seconds":1.5}"#).expect("a float reads back");
        assert_eq!(line, Line { at: "t".into(), kind: Kind::Timed { seconds: 1.5 } });
    }

    fn run(gate: &str) -> Entry {
        Entry {
            at: "2026-11-30T10:00:00Z".into(),
            task: Some("t".into()),
            event: Event::GateRun {
                gate: gate.into(),
                exit: 0,
                duration_ms: 5,
                commit: None,
                inputs_hash: "h".into(),
                timed_out: false,
            },
        }
    }

    #[test]
    fn appended_entries_read_back_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("state/ledger.jsonl");
        assert!(read(&path).expect("empty").is_empty());
        append(&path, &run("a")).expect("append");
        append(&path, &run("b")).expect("append");
        assert_eq!(read(&path).expect("read"), vec![run("a"), run("b")]);
    }

    #[test]
    fn concurrent_appends_each_land_a_whole_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("ledger.jsonl");
        std::thread::scope(|s| {
            for t in 0..8 {
                let path = &path;
                s.spawn(move || {
                    for i in 0..50 {
                        append(path, &run(&format!("gate-{t}-{i}-{}", "x".repeat(200)))).expect("append");
                    }
                });
            }
        });
        assert_eq!(read(&path).expect("every line parses").len(), 400);
    }

    #[test]
    fn a_held_lock_makes_another_taker_wait_then_fail_with_the_lock_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("state/ledger.jsonl");
        let held = lock(&path, Duration::from_secs(1)).expect("first lock");
        let err = lock(&path, Duration::from_millis(50)).expect_err("second lock while held");
        assert!(err.to_string().contains("ledger.lock"), "{err}");
        drop(held);
        lock(&path, Duration::from_millis(50)).expect("free again once released");
    }

    #[test]
    fn a_torn_line_makes_the_ledger_unreadable_with_its_line_number() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("ledger.jsonl");
        append(&path, &run("a")).expect("append");
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("open")
            .write_all(b"{\"at\": \"2026")
            .expect("write");
        let err = read(&path).expect_err("torn");
        assert!(err.to_string().contains(":2: not a ledger entry"), "{err}");
    }
}
