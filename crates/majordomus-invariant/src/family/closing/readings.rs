//! Taking the closing readings: the debt baselines at the start and now,
//! every local branch and linked worktree with its reflog's date, and the
//! recorded forge observation. What each is and is not: `mod.rs`.

use chrono::{DateTime, Utc};

use majordomus_readings::baselines::{self, Baselines};
use majordomus_readings::reflog::{self, Dating};
use majordomus_readings::{refs, renames, worktrees, Reading, Repo, Unread};
use majordomus_records::forge::Observation;
use majordomus_records::paths::REPO_DIR;
use majordomus_records::policy::Policy;
use majordomus_records::task::{error_chain, TaskRecord, TaskState};
use majordomus_records::StatePaths;

use super::ClosingReadings;

/// The debt baselines at the start and now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Debt {
    /// Each baseline's entries at the start, by path.
    pub start: Baselines,
    pub start_from: StartFrom,
    /// Each baseline's entries in the working tree now, by path.
    pub now: Baselines,
    /// Baselines at the start that live at another path now.
    pub moved: Vec<Moved>,
    /// Baselines that appeared since the start and cannot be told from one
    /// moved from a baseline gone since the start (see `pair_leftovers`):
    /// each is compared with the entries of every baseline gone and left
    /// unpaired, never taken for new.
    pub undecided: Vec<String>,
}

/// Where the start's baselines were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartFrom {
    /// The task record's start snapshot: the working tree as it was.
    Snapshot,
    /// The start commit (the record holds no snapshot of the baselines).
    Commit(String),
    /// HEAD had no commit at the start and the record holds no snapshot.
    Unborn,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub from: String,
    pub to: String,
    /// `git rename detection`, `shared entries`, or [`BY_ELIMINATION`].
    pub by: &'static str,
}

/// Every local branch and linked worktree now, with its reflog's date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accumulated {
    pub branches: Vec<Made>,
    pub worktrees: Vec<Made>,
}

/// A branch or a linked worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Made {
    pub name: String,
    /// A branch's commit, a worktree's path.
    pub at: String,
    pub dating: Dating,
    /// A worktree whose directory is gone while git still lists it.
    pub missing: bool,
}

/// The recorded forge observation, as `check` found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backlog {
    /// `None`: the forge was never observed here.
    pub observation: Option<Observation>,
    /// When it was read, to tell its age.
    pub read_at: DateTime<Utc>,
    /// The policy's `[forge] max_age_minutes`.
    pub max_age_minutes: Option<u64>,
}

/// The closing readings; `branches` is the local branches as the rest of
/// `check` read them (one read of every ref, not two).
pub fn measure(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: &TaskState,
    branches: &Reading<Vec<refs::Branch>>,
) -> ClosingReadings {
    ClosingReadings {
        debt: match task.record() {
            Some(record) => debt(repo, record),
            None => Err(Unread::no_task()),
        },
        accumulated: accumulated(repo, branches),
        backlog: backlog(paths, policy),
    }
}

fn debt(repo: &Repo, record: &TaskRecord) -> Reading<Debt> {
    let start_commit = record.head.as_deref();
    // A record whose start commit is not here does not say where the task
    // started, whatever snapshot it holds: checked before anything is read.
    if let Some(commit) = start_commit {
        if !refs::has_commit(repo, commit) {
            return Err(Unread::start_commit_missing(commit));
        }
    }
    let now = baselines::read_worktree(repo)?;
    let (start, start_from) = match (&record.snapshot.baselines, start_commit) {
        (Some(snapshot), _) => (snapshot.clone(), StartFrom::Snapshot),
        (None, Some(commit)) => (baselines::read_commit(repo, commit)?, StartFrom::Commit(commit.to_string())),
        (None, None) => (Baselines::new(), StartFrom::Unborn),
    };
    let gone: Baselines =
        start.iter().filter(|(p, _)| !now.contains_key(*p)).map(|(p, e)| (p.clone(), e.clone())).collect();
    let mut appeared: Baselines =
        now.iter().filter(|(p, _)| !start.contains_key(*p)).map(|(p, e)| (p.clone(), e.clone())).collect();
    let mut moved = Vec::new();
    let mut undecided = Vec::new();
    if !gone.is_empty() && !appeared.is_empty() {
        let mut gone = gone;
        if let Some(commit) = start_commit {
            for r in renames::commit_to_worktree(repo, commit, REPO_DIR)? {
                // Not one with no entries: git pairs an empty file with any
                // other empty one, which tells nothing ([`pair_leftovers`]).
                let told = gone.get(&r.from).is_some_and(|e| !e.is_empty());
                if told && appeared.contains_key(&r.to) {
                    gone.remove(&r.from);
                    appeared.remove(&r.to);
                    moved.push(Moved { from: r.from, to: r.to, by: "git rename detection" });
                }
            }
        }
        for (from, to) in baselines::pair_by_entries(&gone, &appeared) {
            gone.remove(&from);
            appeared.remove(&to);
            moved.push(Moved { from, to, by: "shared entries" });
        }
        let (pair, left) = pair_leftovers(&gone, &appeared);
        moved.extend(pair);
        undecided = left;
    }
    Ok(Debt { start, start_from, now, moved, undecided })
}

/// How a move is paired by `pair_leftovers`.
pub const BY_ELIMINATION: &str = "elimination, the only baseline gone and the only one appeared since the start";

/// What to make of the baselines gone since the start and those appeared,
/// once git's rename detection and the shared entries have paired what they
/// can. A gone baseline that had entries and shares none with any appeared
/// one is told apart by its content: the appeared ones are new. A gone
/// baseline with no entries cannot be told apart at all (git's rename
/// detection does not pair empty files, and it shares no entry), so while
/// one is left unpaired, no appeared baseline is taken for new:
/// - exactly one gone and one appeared left: they are paired, by elimination;
/// - more on either side: each appeared one is undecided, compared with the
///   entries of every gone one left (an entry in none of them is added).
///
/// A baseline that cannot be told from a renamed one is thus never silently
/// treated as new: an empty baseline renamed launders no entry.
fn pair_leftovers(gone: &Baselines, appeared: &Baselines) -> (Option<Moved>, Vec<String>) {
    if appeared.is_empty() || !gone.values().any(Vec::is_empty) {
        return (None, Vec::new());
    }
    let gone: Vec<&String> = gone.keys().collect();
    let appeared: Vec<&String> = appeared.keys().collect();
    match (gone.as_slice(), appeared.as_slice()) {
        ([from], [to]) => (Some(Moved { from: (*from).clone(), to: (*to).clone(), by: BY_ELIMINATION }), Vec::new()),
        _ => (None, appeared.into_iter().cloned().collect()),
    }
}

fn accumulated(repo: &Repo, branches_now: &Reading<Vec<refs::Branch>>) -> Reading<Accumulated> {
    let mut branches = Vec::new();
    for b in branches_now.as_ref().map_err(Clone::clone)? {
        let dating = reflog::date(&reflog::branch_log(repo, &b.name))?;
        branches.push(Made { name: b.name.clone(), at: b.commit.clone(), dating, missing: false });
    }
    let mut trees = Vec::new();
    for (name, path) in worktrees::read(repo)? {
        let dating = reflog::date(&reflog::worktree_log(repo, &name))?;
        let missing = !std::path::Path::new(&path).exists();
        trees.push(Made { name, at: path, dating, missing });
    }
    Ok(Accumulated { branches, worktrees: trees })
}

fn backlog(paths: &StatePaths, policy: &Policy) -> Reading<Backlog> {
    let observation = Observation::load(&paths.forge()).map_err(|e| Unread::record(error_chain(&e)))?;
    Ok(Backlog {
        observation,
        read_at: Utc::now(),
        max_age_minutes: policy.forge.as_ref().and_then(|f| f.max_age_minutes),
    })
}

#[cfg(test)]
mod tests;
