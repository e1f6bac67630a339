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

use crate::names::Names;
pub use crate::reading_at_start::{Bit, FileAtStart, ReadingAtStart};
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
    /// The paths `majordomus scope add` put in [`TaskRecord::scope`] after
    /// the start, each with when: the scope grows in place, and says so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope_added: Vec<ScopeAdded>,
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
    /// The agent session the task was started in, as its host names it to
    /// hooks (`session_id`); `None` outside one, or in a record written
    /// before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<Session>,
}

/// An agent session: its host (`claude`, `codex`) and the id the host gives
/// its hooks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    pub host: String,
    pub id: String,
}

/// A path added to the task's scope after the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScopeAdded {
    pub path: String,
    /// RFC 3339, UTC.
    pub at: String,
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
    /// Local branches and the commit each pointed at, written as one
    /// string of `NAME:ID` entries ([`crate::names::lines`]).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::names::lines")]
    pub branches: Option<Names>,
    /// Linked worktrees by name, with their paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktrees: Option<Names>,
    /// Stash entries (commit ids), newest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stashes: Option<Vec<String>>,
    /// Commits on HEAD that were not on its upstream (or the trunk).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unpushed: Option<Vec<String>>,
    /// Debt baselines by repository-relative path: their entries, in order,
    /// as text. Written by majordomus before entries were kept as bytes
    /// (an entry that was not UTF-8 was decoded lossily); read only where
    /// [`Snapshot::baseline_bytes`] is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baselines: Option<BTreeMap<String, Vec<String>>>,
    /// What governed the reading of the working tree: the configuration,
    /// ignore rules and index bits by which `check` reads it as the start
    /// would have (`None`: a record written before majordomus kept them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<ReadingAtStart>,
    /// Debt baselines by repository-relative path: their entries, in order,
    /// exactly as their bytes are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_bytes: Option<BTreeMap<String, Vec<Bytes>>>,
    /// The environment that chose a gate's programs, as `start` ran
    /// (`ledger::GATE_ENVIRONMENT`): a verdict recorded under other values
    /// is not the gate's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate_environment: Option<crate::ledger::Environment>,
    /// The policy file as it stood at the start: the policy in force for
    /// the task is read from it (README, "The policy in force"). `None` in a
    /// record written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyAtStart>,
    /// The task this working tree ended last, when it ended `partial`,
    /// `blocked` or `failed` with questions open: what it left here is this
    /// task's inheritance, and the evidence says whose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<PreviousTask>,
    /// The configured remotes by name, with their URLs: a remote added or
    /// re-pointed since is not evidence of what the remote holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remotes: Option<BTreeMap<String, RemoteAtStart>>,
    /// The addresses a commit made here was authored under at the start
    /// (`GIT_AUTHOR_EMAIL`, `user.email`; `EMAIL` where neither is set): a
    /// commit under one of them is this repository's own, whatever the
    /// address reads when the task is checked (test/cases/482). `None` in
    /// a record written before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_addresses: Option<Vec<String>>,
    /// Every remote-tracking ref (`refs/remotes/...`, symbolic ones aside)
    /// and the commit it pointed at: a ref moved since by anything but a
    /// fetch or a push is read at this value.
    /// Written as one string of `NAME:ID` entries ([`crate::names::lines`]).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::names::lines")]
    pub remote_refs: Option<Names>,
    /// The trunk's full ref name (`refs/remotes/origin/main`), when one
    /// was found: moving `origin/HEAD` since does not move the trunk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trunk: Option<String>,
    /// Local branches whose upstream was already gone, with that
    /// upstream's ref name: inherited by `upstream-alive`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gone_upstreams: Option<Names>,
    /// The upstream refs of local branches that existed at the start, each
    /// with the newest line its reflog held then (empty: none): an
    /// upstream pruned and made again at its start value has a reflog of
    /// its own since, and must show a fetch or push of its remote to count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream_logs: Option<Names>,
    /// Where this worktree's HEAD reflog ended at the start: what was
    /// appended since is the task's, whatever time its lines carry
    /// (`GIT_COMMITTER_DATE` dates them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_log: Option<LogMark>,
    /// A digest of the packed refs other than branches and remote-tracking
    /// refs (readings' `refs::kept`): the same digest later says none of
    /// them was written since the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packed_refs: Option<String>,
    /// The pull requests the forge observation held open when the task
    /// started, where there was one: a pull request open now that it did
    /// not hold, made before it was taken, was reopened since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_pull_requests: Option<OpenAtStart>,
    /// Every submodule checked out in the working tree at the start (and
    /// theirs, as deep as `pushed` follows them), by its path from the
    /// root (`lib`, `lib/inner`): what its own refs and stash held, so
    /// that work left there since is told from what it already held.
    /// `None` in a record written before they were kept, or when one could
    /// not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submodules: Option<BTreeMap<String, SubmoduleAtStart>>,
    /// The working tree's root as git named it at the start, as its bytes
    /// ([`RepoPath`]'s encoding): a record read at another root while this
    /// one is still a working tree of the same git directory is not that
    /// root's ([`crate::started_in`]). `None` in a record written before it
    /// was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<RepoPath>,
}

/// The most pull requests [`OpenAtStart`] lists (a refresh lists at most
/// a thousand).
pub const MAX_OPEN_AT_START: usize = 1000;

/// The most addresses of its own a task record holds: git takes an
/// author's address from at most three places.
pub const MAX_OWN_ADDRESSES: usize = 3;

/// What the forge observation current at the start said was open.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenAtStart {
    /// When that observation was made (RFC 3339).
    pub observed_at: String,
    /// `owner/name` it was made of.
    pub repository: String,
    /// The numbers of the pull requests it held open.
    pub numbers: Vec<u64>,
}

/// A submodule checked out at the start, as its own repository held it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmoduleAtStart {
    /// Its git directory (`.git/modules/lib`), read again where the
    /// submodule is no longer checked out.
    pub git_dir: String,
    /// The URL the superproject names for it (`.gitmodules`'s, resolved),
    /// whose remote-tracking refs alone count; `None`: it names none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Its local branches and the commit each pointed at.
    pub branches: Names,
    /// Its other refs (tags and the like: not branches, remote-tracking
    /// refs or the stash) and the commit each names.
    #[serde(default)]
    pub refs: Names,
    /// Its stash entries (commit ids), newest first.
    pub stashes: Vec<String>,
    /// Its linked worktrees by name, with their paths.
    #[serde(default)]
    pub worktrees: Names,
    /// Its HEAD's commit at the start (`None`: unborn, or a record from
    /// before it was kept): the commit whose ignore files held then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// What governed the reading of its working tree at the start, as
    /// [`Snapshot::reading`] is the superproject's: a bit, an ignore rule
    /// or a setting set inside it since hides nothing. `None` in a record
    /// from before it was kept, or where its working tree could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<ReadingAtStart>,
}

/// Where a reflog file ended: its length in bytes and its last line (empty
/// for an empty or missing file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogMark {
    pub len: u64,
    pub last: String,
}

/// `.ai/repo/majordomus.toml` at the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyAtStart {
    /// The file's text; `None` when there was no policy file (the defaults).
    pub text: Option<String>,
}

/// A task that ended with questions open, as its archive holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreviousTask {
    pub id: String,
    pub task: String,
    /// `partial`, `blocked` or `failed`.
    pub outcome: String,
    pub finished_at: String,
    /// The done line `finish` measured: what it left open.
    pub done_line: String,
    /// The archive the record was read from.
    pub archive: String,
}

/// A remote as it was configured at the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteAtStart {
    /// `remote.<name>.url`.
    pub url: String,
    /// `remote.<name>.pushurl`, where one is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_url: Option<String>,
    /// `remote.<name>.fetch`, each refspec as configured: which of the
    /// remote's refs a fetch writes into which remote-tracking ref. `None`
    /// in a record written before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetch: Option<Vec<String>>,
    /// Where `url` led on this machine at the start: a URL's text can stay
    /// the start's while what it names is replaced (a symbolic link
    /// re-pointed, the directory swapped for a copy, a repository made
    /// where git's transport finds it first). `None` in a record written
    /// before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_leads: Option<Leads>,
    /// Where `push_url` led at the start, where one is set (as `url_leads`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_url_leads: Option<Leads>,
    /// `remote.<name>.gh-resolved`, gh's default-repository setting (`gh
    /// repo set-default` writes it: `base`, this remote's repository, or
    /// `OWNER/REPO`): gh answers for the repository it names before any
    /// the URLs name, so the start's repository is resolved with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gh_resolved: Option<String>,
    /// `remote.<name>.glab-resolved`, glab's setting of the same kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glab_resolved: Option<String>,
    /// Every `remote.<name>.url` value, in order, as `insteadOf` rewrites
    /// them, where there is more than one: git fetches from the first and,
    /// with no push URL, pushes to every one, so a value added or removed
    /// since re-points the remote (test/cases/487). `None`: one URL, or a
    /// record written before they were kept (`url` is all there was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub urls: Option<Vec<String>>,
    /// Every place a push goes (each `pushurl` value, or with none each
    /// URL, as git rewrites them), in order, where there is more than one.
    /// `None`: one (`push_url`, else `url`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_urls: Option<Vec<String>>,
    /// For a remote on this machine, its branches no remote-tracking ref
    /// here stood for at the start (the fetch refspecs map them to none, as
    /// in a `--single-branch` clone or a push mirror, or to a ref that did
    /// not exist), by name and tip: a branch it had then is not one a push
    /// from here made since (test/cases/488). `None`: a remote across a
    /// network, one with more such branches than are kept, or a record
    /// written before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beyond_refspecs: Option<Names>,
}

/// Where a remote's URL leads on this machine. Externally tagged (serde's
/// default), so no number is buffered on the way in (the workspace's
/// `arbitrary_precision` would read a buffered one as a map).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Leads {
    /// A URL across a network: nothing here to read.
    Network,
    /// A path on this machine where git's transport finds no repository.
    Nothing,
    /// The repository git's transport finds there.
    Repository(RepositoryAt),
}

/// A repository on this machine: the path git's transport finds it at,
/// canonical, and its git directory's device and inode (a directory put in
/// its place under the same path is another inode).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepositoryAt {
    pub path: Bytes,
    pub dev: u64,
    pub ino: u64,
}

/// Bytes kept in a JSON record: a string where they are UTF-8 (so the
/// record stays readable), else an array of byte values. Never decoded
/// lossily: two different byte strings are never one value.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(pub Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(&self.0) {
            Ok(text) => s.serialize_str(text),
            Err(_) => self.0.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor rather than an untagged enum: the workspace's serde_json
        // has `arbitrary_precision`, under which a number buffered for an
        // untagged enum no longer reads as a `u8`.
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or an array of byte values")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Bytes, E> {
                Ok(Bytes(v.as_bytes().to_vec()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Bytes, A::Error> {
                let mut out = Vec::new();
                while let Some(b) = seq.next_element::<u8>()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }
        d.deserialize_any(Visitor)
    }
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
        source: crate::confined::PlaceError,
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

    /// What the task record of `paths` says, where a record that is gone
    /// while its task was never finished is no record at all: the copy
    /// `save` keeps in the git directory ([`crate::StatePaths::task_copy`])
    /// outlives a `git clean -x` or `rm -r .ai`, and while it exists and the
    /// record does not, the state is [`TaskState::Unreadable`], saying so.
    /// Deleting the record is then no way to make a task disappear: every
    /// question is `unknown`, and the stop hook blocks, until the record is
    /// put back or the task is finished.
    ///
    /// A record that differs from its copy was changed by hand (its scope,
    /// its start commit and its snapshot are what judge the task), and is
    /// [`TaskState::Unreadable`] too. A record written before copies were
    /// kept has none, and is read as it is, unless the root it started in
    /// is another working tree of this repository still: then it was copied
    /// here from there ([`crate::started_in::copied_from`]).
    pub fn here(paths: &crate::StatePaths) -> Self {
        Self::here_with_text(paths).0
    }

    /// [`TaskState::here`], with the bytes an active record was parsed
    /// from (the completion document holds the record as they are, not
    /// encoded again).
    pub fn here_with_text(paths: &crate::StatePaths) -> (Self, Option<Vec<u8>>) {
        let path = paths.task();
        // Read once: the bytes parsed are the bytes compared with the copy.
        let (state, bytes) = match TaskRecord::read(&path) {
            Ok(Some(bytes)) => match TaskRecord::parse(&path, &bytes) {
                Ok(record) => (TaskState::Active(Box::new(record)), Some(bytes)),
                Err(e) => (TaskState::Unreadable(error_chain(&e)), None),
            },
            Ok(None) => (TaskState::None, None),
            Err(e) => (TaskState::Unreadable(error_chain(&e)), None),
        };
        let Some(copy_path) = paths.task_copy() else { return (state, bytes) };
        let shown = |p: &Path| p.strip_prefix(paths.root()).unwrap_or(p).display().to_string();
        let (record, copy, state_dir) = (shown(&path), shown(&copy_path), shown(&paths.state_dir()));
        if let (TaskState::Active(_), Some(now)) = (&state, bytes) {
            return match crate::regular::read(&copy_path) {
                Ok(kept) if kept != now => (
                    TaskState::Unreadable(format!(
                        "the task record {record} is not the one majordomus wrote: it differs from the copy kept in \
                     the git directory, {copy}, so it was changed by hand (its scope, its start and its snapshot \
                     judge the task; `majordomus scope add PATH` is how a scope grows). `cp {copy} {record}` puts \
                     majordomus's back"
                    )),
                    None,
                ),
                kept => {
                    let root = state.record().and_then(|r| r.snapshot.root.as_ref());
                    // No copy here: a record copied from the tree the task
                    // started in, where its copy is (test/cases/562).
                    let copied = || kept.is_err().then(|| crate::started_in::copied_from(paths, root)).flatten();
                    match crate::started_in::elsewhere(paths, root).or_else(copied) {
                        Some(reason) => (TaskState::Unreadable(reason), None),
                        None => (state, Some(now)),
                    }
                }
            };
        }
        if !matches!(state, TaskState::None) {
            return (state, None);
        }
        // A linked worktree removed with its task open and put back under
        // its name has only the copy in the common git directory left.
        let copy_path = paths.kept_copy().unwrap_or(copy_path);
        let copy = shown(&copy_path);
        let state = match TaskRecord::load(&copy_path) {
            Ok(None) => TaskState::None,
            Ok(Some(kept)) => {
                let gone = format!(
                    "the task record {record} is gone while its task {:?} (started {}) was never finished",
                    crate::text::escape(&kept.task),
                    crate::text::escape(&kept.started_at),
                );
                // Where the task started in another working tree of this
                // git directory, the record is not this root's to put back.
                TaskState::Unreadable(match crate::started_in::elsewhere(paths, kept.snapshot.root.as_ref()) {
                    Some(reason) => format!("{gone}: {reason}"),
                    None => format!(
                        "{gone}; a copy remains in the git directory: `mkdir -p {state_dir} && cp {copy} {record}` \
                         puts it back"
                    ),
                })
            }
            Err(e) => TaskState::Unreadable(format!(
                "the task record {record} is gone while its task was never finished, and its copy in the git \
                 directory, {copy}, cannot be read either ({})",
                error_chain(&e)
            )),
        };
        (state, None)
    }

    pub fn record(&self) -> Option<&TaskRecord> {
        match self {
            TaskState::Active(r) => Some(r),
            _ => None,
        }
    }
}

impl TaskRecord {
    /// Reads the record; `Ok(None)` when there is none. A record whose
    /// fields are out of their bounds ([`TaskRecord::check`]) is malformed.
    pub fn load(path: &Path) -> Result<Option<Self>, TaskError> {
        match Self::read(path)? {
            Some(bytes) => Self::parse(path, &bytes).map(Some),
            None => Ok(None),
        }
    }

    /// The bytes of the record at `path`, bounded as [`TaskRecord::load`]
    /// bounds them; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<Vec<u8>>, TaskError> {
        crate::json::read::<Self>(path).map_err(|failure| task_error(path, failure))
    }

    /// The record in `bytes`, read from `path` (named in the error).
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Self, TaskError> {
        crate::json::parse(bytes).map_err(|reason| TaskError::Malformed { path: path.into(), reason })
    }

    /// Writes the record over the task record of `paths`, atomically; one
    /// its own reading would refuse (a field past its bound: a `PATH` of
    /// more than 128 KiB) is refused here instead.
    pub fn save(&self, paths: &crate::StatePaths) -> Result<(), TaskError> {
        let path = paths.task();
        self.check().map_err(|reason| TaskError::Malformed { path: path.clone(), reason })?;
        let mut bytes = serde_json::to_vec_pretty(self)
            .map_err(|e| TaskError::Malformed { path: path.clone(), reason: e.to_string() })?;
        bytes.push(b'\n');
        let dir = paths.open_state(true).map_err(|source| TaskError::Write { path: path.clone(), source })?;
        dir.replace(TASK_FILE, &bytes, crate::confined::Perm::Private)
            .map_err(|source| TaskError::Write { path, source })?;
        Self::keep_copy(paths, &bytes)
    }

    /// Writes `bytes`, the record just written, as its copy in the git
    /// directory ([`crate::StatePaths::task_copy`]); every writer of the
    /// record calls it after writing.
    pub fn keep_copy(paths: &crate::StatePaths, bytes: &[u8]) -> Result<(), TaskError> {
        let (Some(copy), Some(dir)) = (paths.task_copy(), paths.open_git_state(true)) else { return Ok(()) };
        dir.and_then(|dir| dir.replace(TASK_FILE, bytes, crate::confined::Perm::Private))
            .map_err(|source| TaskError::Write { path: copy, source })?;
        // A linked worktree's second copy, which its removal does not reach.
        let (Some(copy), Some((dir, name))) = (paths.worktree_copy(), paths.open_worktree_copies(true)) else {
            return Ok(());
        };
        dir.and_then(|dir| dir.replace(&name, bytes, crate::confined::Perm::Private))
            .map_err(|source| TaskError::Write { path: copy, source })
    }

    /// Removes the copy [`TaskRecord::save`] keeps in the git directory,
    /// once the task is finished (its record archived and removed).
    pub fn forget_copy(paths: &crate::StatePaths) -> Result<(), TaskError> {
        if let (Some(copy), Some((dir, name))) = (paths.worktree_copy(), paths.open_worktree_copies(false)) {
            match dir {
                Ok(dir) => dir.remove(&name).map(|_| ()).map_err(|source| TaskError::Write { path: copy, source })?,
                Err(e) if e.io_kind() == Some(std::io::ErrorKind::NotFound) => {}
                Err(source) => return Err(TaskError::Write { path: copy, source }),
            }
        }
        let (Some(copy), Some(dir)) = (paths.task_copy(), paths.open_git_state(false)) else { return Ok(()) };
        match dir {
            Ok(dir) => dir.remove(TASK_FILE).map(|_| ()).map_err(|source| TaskError::Write { path: copy, source }),
            Err(e) if e.io_kind() == Some(std::io::ErrorKind::NotFound) => Ok(()),
            Err(source) => Err(TaskError::Write { path: copy, source }),
        }
    }

    /// Every field within its bound: ids and names short, object ids 40 or
    /// 64 hex digits, paths no longer than a path can be. A record that is
    /// not is refused whole, so nothing unbounded is ever echoed into an
    /// answer's evidence.
    pub fn check(&self) -> Result<(), String> {
        use crate::text::{check_len, check_object_id, MAX_FIELD};
        check_len("id", &self.id, MAX_ID)?;
        if self.task.chars().count() > MAX_TITLE_CHARS {
            return Err(format!("its task is longer than {MAX_TITLE_CHARS} characters"));
        }
        check_len("started_at", &self.started_at, 64)?;
        self.scope.iter().try_for_each(|p| check_len("scope", p, MAX_FIELD))?;
        self.issues.iter().try_for_each(|i| check_len("issue", i, 256))?;
        if let Some(head) = &self.head {
            check_object_id("head", head)?;
        }
        if let Some(branch) = &self.branch {
            check_len("branch", branch, MAX_FIELD)?;
        }
        if let Some(session) = self.owner.as_ref().and_then(|o| o.session.as_ref()) {
            check_len("owner's host", &session.host, 64)?;
            check_len("owner's session", &session.id, MAX_ID)?;
        }
        let s = &self.snapshot;
        for d in s.dirty.iter().flatten() {
            check_len("dirty path", &d.path.to_string(), MAX_FIELD)?;
            d.index.iter().chain(&d.worktree).try_for_each(|id| check_object_id("dirty path's blob", id))?;
        }
        for u in s.untracked.iter().flatten() {
            check_len("untracked path", &u.path.to_string(), MAX_FIELD)?;
            u.worktree.iter().try_for_each(|id| check_object_id("untracked path's blob", id))?;
        }
        for (name, id) in s.branches.iter().flatten() {
            check_len("branch", name, MAX_FIELD)?;
            check_object_id("branch's commit", id)?;
        }
        for (name, path) in s.worktrees.iter().flatten() {
            check_len("worktree", name, MAX_FIELD)?;
            check_len("worktree path", path, MAX_FIELD)?;
        }
        s.stashes.iter().flatten().try_for_each(|id| check_object_id("stash", id))?;
        s.unpushed.iter().flatten().try_for_each(|id| check_object_id("unpushed commit", id))?;
        for (path, sub) in s.submodules.iter().flatten() {
            check_len("submodule path", path, MAX_FIELD)?;
            check_len("submodule's git directory", &sub.git_dir, MAX_FIELD)?;
            sub.url.iter().try_for_each(|u| check_len("submodule's URL", u, MAX_FIELD))?;
            for (name, id) in sub.branches.iter().chain(sub.refs.iter()) {
                check_len("submodule's ref", name, MAX_FIELD)?;
                check_object_id("submodule ref's commit", id)?;
            }
            sub.stashes.iter().try_for_each(|id| check_object_id("submodule's stash", id))?;
            for (name, path) in sub.worktrees.iter() {
                check_len("submodule's worktree", name, MAX_FIELD)?;
                check_len("submodule's worktree path", path, MAX_FIELD)?;
            }
            sub.head.iter().try_for_each(|id| check_object_id("submodule's HEAD", id))?;
            sub.reading.as_ref().map_or(Ok(()), crate::reading_at_start::check)?;
        }
        for (path, entries) in s.baselines.iter().flatten() {
            check_len("baseline path", path, MAX_FIELD)?;
            entries.iter().try_for_each(|e| check_len("baseline entry", e, MAX_BASELINE_ENTRY))?;
        }
        for (path, entries) in s.baseline_bytes.iter().flatten() {
            check_len("baseline path", path, MAX_FIELD)?;
            if let Some(e) = entries.iter().find(|e| e.0.len() > MAX_BASELINE_ENTRY) {
                return Err(format!(
                    "its baseline entry is {} bytes long, more than the {MAX_BASELINE_ENTRY} it may be",
                    e.0.len()
                ));
            }
        }
        if let Some(open) = &s.open_pull_requests {
            check_len("open pull requests' observation time", &open.observed_at, 64)?;
            check_len("open pull requests' repository", &open.repository, MAX_FIELD)?;
            if open.numbers.len() > MAX_OPEN_AT_START {
                return Err(format!("it lists more than {MAX_OPEN_AT_START} pull requests open at the start"));
            }
        }
        s.gate_environment.as_ref().map_or(Ok(()), crate::ledger::check_environment)?;
        if let Some(own) = &s.own_addresses {
            if own.len() > MAX_OWN_ADDRESSES {
                return Err(format!("it lists more than {MAX_OWN_ADDRESSES} addresses of its own"));
            }
            for address in own {
                check_len("own address", address, MAX_FIELD)?;
            }
        }
        s.reading.as_ref().map_or(Ok(()), crate::reading_at_start::check)?;
        s.root.iter().try_for_each(|r| check_len("root", &r.to_string(), MAX_FIELD))?;
        for added in &self.scope_added {
            check_len("scope added", &added.path, MAX_FIELD)?;
            check_len("scope added's time", &added.at, 64)?;
        }
        if let Some(text) = s.policy.as_ref().and_then(|p| p.text.as_ref()) {
            check_len("policy text", text, MAX_POLICY_TEXT)?;
        }
        if let Some(p) = &s.previous {
            check_len("previous task's id", &p.id, MAX_ID)?;
            if p.task.chars().count() > MAX_TITLE_CHARS {
                return Err(format!("its previous task is longer than {MAX_TITLE_CHARS} characters"));
            }
            check_len("previous task's outcome", &p.outcome, 32)?;
            check_len("previous task's finish time", &p.finished_at, 64)?;
            check_len("previous task's done line", &p.done_line, MAX_FIELD * 4)?;
            check_len("previous task's archive", &p.archive, MAX_FIELD)?;
        }
        Ok(())
    }
}

impl crate::json::Record for TaskRecord {
    const SCHEMA: &'static str = TASK_SCHEMA;
    /// A start snapshot of a large repository (100,000 paths, 20 baselines
    /// of 1,000 entries) is a few tens of megabytes.
    const MAX_BYTES: u64 = 256 << 20;
    fn schema(&self) -> &str {
        &self.schema
    }
    fn check(&self) -> Result<(), String> {
        TaskRecord::check(self)
    }
}

/// The task record's file name in the state directory.
pub const TASK_FILE: &str = "task.json";
/// The most bytes a task's id may have.
pub const MAX_ID: usize = 128;
/// The most characters a task's title may have.
pub const MAX_TITLE_CHARS: usize = 1000;
/// The most bytes one debt-baseline entry kept in the snapshot may have.
pub const MAX_BASELINE_ENTRY: usize = 64 << 10;
/// The most bytes of the policy file the snapshot keeps; a larger one is
/// left out, and its start commit's copy stands for it.
pub const MAX_POLICY_TEXT: usize = 1 << 20;

/// Why the task record at `path` could not be read.
fn task_error(path: &Path, failure: crate::json::Failure) -> TaskError {
    match failure {
        crate::json::Failure::Io(source) => TaskError::Io { path: path.into(), source },
        crate::json::Failure::Malformed(reason) => TaskError::Malformed { path: path.into(), reason },
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
            scope_added: vec![],
            issues: vec![],
            started_at: "2026-11-30T10:00:00Z".into(),
            head: None,
            branch: Some("main".into()),
            snapshot: Snapshot::default(),
            owner: Some(Owner { pid: 42, start_time: Some(7), session: None }),
        }
    }

    #[test]
    fn a_record_round_trips_through_its_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let paths = crate::StatePaths::new(dir.path());
        let path = paths.task();
        sample().save(&paths).expect("save");
        assert_eq!(TaskRecord::load(&path).expect("load"), Some(sample()));
    }

    #[test]
    fn a_record_its_own_reading_would_refuse_is_never_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let paths = crate::StatePaths::new(dir.path());
        let mut r = sample();
        let members = (0..=256).map(|i| (format!("npm_config_x{i}"), None));
        r.snapshot.gate_environment = Some(members.collect());
        match r.save(&paths) {
            Err(TaskError::Malformed { reason, .. }) => assert!(reason.contains("more than 256"), "{reason}"),
            other => panic!("expected refused, got {other:?}"),
        }
        assert!(!paths.task().exists(), "nothing written");
    }

    #[test]
    fn a_record_is_active_while_it_equals_its_copy_and_unreadable_once_changed_or_gone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let git_dir = dir.path().join(".git");
        std::fs::create_dir_all(&git_dir).expect("mkdir");
        let paths = crate::StatePaths::new(dir.path()).with_git_dir(&git_dir);
        sample().save(&paths).expect("save");
        assert!(matches!(TaskState::here(&paths), TaskState::Active(r) if *r == sample()));
        // Edited by hand, still a valid record: it is not the one written.
        let mut edited = sample();
        edited.scope.push("src/elsewhere".into());
        let mut bytes = serde_json::to_vec_pretty(&edited).expect("encode");
        bytes.push(b'\n');
        std::fs::write(paths.task(), &bytes).expect("write");
        match TaskState::here(&paths) {
            TaskState::Unreadable(reason) => assert!(reason.contains("differs from the copy"), "{reason}"),
            other => panic!("expected unreadable, got {other:?}"),
        }
        std::fs::remove_file(paths.task()).expect("rm");
        match TaskState::here(&paths) {
            TaskState::Unreadable(reason) => assert!(reason.contains("is gone while its task"), "{reason}"),
            other => panic!("expected unreadable, got {other:?}"),
        }
        TaskRecord::forget_copy(&paths).expect("forget");
        assert!(matches!(TaskState::here(&paths), TaskState::None));
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
    fn baseline_entries_are_kept_as_their_bytes_text_where_they_are_utf8() {
        let mut r = sample();
        let entries =
            vec![Bytes(b"src/a.rs: \xff".to_vec()), Bytes(b"src/a.rs: \xfe".to_vec()), Bytes(b"plain".to_vec())];
        r.snapshot.baseline_bytes = Some([(".ai/repo/lint-baseline.txt".to_string(), entries.clone())].into());
        let text = serde_json::to_string(&r).expect("encode");
        assert!(
            text.contains(
                r#"[[115,114,99,47,97,46,114,115,58,32,255],[115,114,99,47,97,46,114,115,58,32,254],"plain"]"#
            ),
            "{text}"
        );
        let back: TaskRecord = serde_json::from_str(&text).expect("decode");
        assert_eq!(back.snapshot.baseline_bytes.expect("kept")[".ai/repo/lint-baseline.txt"], entries);
    }

    #[test]
    fn a_field_out_of_its_bounds_makes_the_record_unreadable_without_echoing_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("task.json");
        let huge = "f".repeat(10 << 20);
        let mut cases: Vec<(&str, TaskRecord)> = Vec::new();
        let mut r = sample();
        r.head = Some(huge.clone());
        cases.push(("head", r));
        let mut r = sample();
        r.task = "t".repeat(MAX_TITLE_CHARS + 1);
        cases.push(("task", r));
        let mut r = sample();
        r.snapshot.stashes = Some(vec!["HEAD".into()]);
        cases.push(("stash", r));
        let mut r = sample();
        r.id = huge.clone();
        cases.push(("id", r));
        let mut r = sample();
        r.snapshot.baseline_bytes =
            Some([("b-baseline.txt".to_string(), vec![Bytes(huge.clone().into_bytes())])].into());
        cases.push(("baseline entry", r));
        let mut r = sample();
        r.snapshot.gate_environment = Some([("PATH".to_string(), Some(huge.clone()))].into());
        cases.push(("PATH", r));
        let mut r = sample();
        r.snapshot.gate_environment = Some([("USER".to_string(), None)].into());
        cases.push(("environment", r));
        for (field, record) in cases {
            std::fs::write(&path, serde_json::to_vec(&record).expect("json")).expect("write");
            match TaskState::load(&path) {
                TaskState::Unreadable(reason) => {
                    assert!(reason.contains(&format!("its {field}")), "{field}: {reason}");
                    assert!(reason.len() < 1000, "{field}: the reason echoes the field ({} bytes)", reason.len());
                }
                other => panic!("{field}: expected unreadable, got {other:?}"),
            }
        }
        let mut r = sample();
        r.head = Some("0123456789abcdef0123456789abcdef01234567".into());
        std::fs::write(&path, serde_json::to_vec(&r).expect("json")).expect("write");
        assert!(matches!(TaskState::load(&path), TaskState::Active(_)));
    }

    #[test]
    fn a_start_time_that_is_not_rfc3339_is_an_error_of_its_own() {
        let mut r = sample();
        assert!(r.started_at().is_ok());
        r.started_at = "yesterday".into();
        assert!(r.started_at().expect_err("not a time").contains("yesterday"));
    }
}
