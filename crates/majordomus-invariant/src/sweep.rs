//! What a task left behind when its owner went away without `finish`.
//!
//! A `kill -9`, a closed terminal, an agent whose session ended or whose
//! context ran out: none of them runs an exit hook, so a dead task can
//! never report on itself. Someone who comes after has to look. `sweep`
//! looks across every worktree of the repository (the main one and each
//! linked one) for a task record whose owner, the process that ran
//! `majordomus start`, no longer runs (or was never recorded), and reads
//! what that task left: uncommitted and untracked paths, unpushed commits,
//! stashes and branches made since its start, and what `check` would say
//! there.
//!
//! It changes nothing. A task whose owner may still be running (its
//! liveness could not be read) is reported as possibly live, never as gone.

use std::path::PathBuf;

use majordomus_readings::refs::Push;
use majordomus_readings::{process, worktrees, Reading, Repo};
use majordomus_records::policy::Policy;
use majordomus_records::task::{Owner, TaskRecord, TaskState};
use majordomus_records::StatePaths;

use crate::answer::Answer;
use crate::measure;

/// One worktree and what its task record says.
#[derive(Debug)]
pub struct WorktreeSeen {
    pub path: PathBuf,
    /// `main`, or the linked worktree's name.
    pub name: String,
    pub finding: Finding,
}

#[derive(Debug)]
pub enum Finding {
    /// No task record: nothing started here is unfinished.
    NoTask,
    /// The worktree could not be read (its directory is gone, say).
    Unreadable(String),
    /// A task record that cannot be read as one.
    BadRecord(String),
    /// A task whose owner still runs.
    Live { record: Box<TaskRecord>, owner: Owner },
    /// A task whose owner's liveness cannot be read: possibly still held.
    Unsure { record: Box<TaskRecord>, why: String },
    /// A task whose owner is gone, and what it left.
    Gone { record: Box<TaskRecord>, why: String, left: Box<Left> },
    /// A task left open in a linked worktree that is gone, or in a
    /// submodule whose working tree holds no record (`src/orphans.rs`):
    /// left behind, with nothing of it left to measure.
    Orphaned(Box<crate::orphans::Orphan>),
}

impl Finding {
    /// A task left behind: its owner gone, or its working tree.
    pub fn left_behind(&self) -> bool {
        matches!(self, Finding::Gone { .. } | Finding::Orphaned(_))
    }
}

/// What a gone task left in its worktree.
#[derive(Debug)]
pub struct Left {
    pub uncommitted: Reading<Vec<String>>,
    pub untracked: Reading<Vec<String>>,
    /// Commits made since the start that are on no remote (ids, newest first).
    pub unpushed: Reading<Vec<String>>,
    /// Stash entries made since the start, as `stash@{N} (message)`.
    pub stashes: Reading<Vec<String>>,
    /// Local branches created since the start.
    pub branches: Reading<Vec<String>>,
    /// What `check` answers there now.
    pub answers: Vec<Answer>,
    /// The policy could not be read there, so the defaults were used.
    pub policy_note: Option<String>,
}

/// Looks at every worktree's task record, and at the tasks left open
/// where no worktree shows them. Reads only.
pub fn sweep(repo: &Repo) -> Reading<Vec<WorktreeSeen>> {
    let mut seen: Vec<WorktreeSeen> = worktrees::all(repo)?
        .into_iter()
        .map(|w| {
            let finding = match w.problem {
                Some(p) => Finding::Unreadable(p),
                None => look(&w.path),
            };
            WorktreeSeen { path: w.path, name: w.name, finding }
        })
        .collect();
    seen.extend(crate::orphans::orphans(repo).into_iter().map(|o| WorktreeSeen {
        path: o.copy.clone(),
        name: o.name.clone(),
        finding: Finding::Orphaned(Box::new(o)),
    }));
    Ok(seen)
}

fn look(root: &std::path::Path) -> Finding {
    let paths = StatePaths::new(root);
    let record = match TaskState::here(&paths) {
        TaskState::None => return Finding::NoTask,
        TaskState::Unreadable(reason) => return Finding::BadRecord(reason),
        TaskState::Active(r) => r,
    };
    let why = match &record.owner {
        None => "the record names no owner (it was started by a majordomus that did not record one)".to_string(),
        Some(owner) => match process::is_running(owner.pid, owner.start_time) {
            Ok(true) => return Finding::Live { owner: owner.clone(), record },
            Ok(false) => format!("its owner, pid {}, no longer runs", owner.pid),
            Err(e) => {
                return Finding::Unsure {
                    why: format!("whether its owner, pid {}, runs cannot be read: {}", owner.pid, e.reason),
                    record,
                }
            }
        },
    };
    let repo = match majordomus_readings::open(root) {
        Ok(r) => r,
        Err(e) => return Finding::Unreadable(majordomus_records::task::error_chain(&e)),
    };
    // The policy in force for that task: the start's, with what only adds strictness.
    let task = TaskState::Active(record.clone());
    let (policy, policy_note) = match crate::in_force::read(Some(&repo), paths.root(), &task) {
        Ok(p) => (p.policy, None),
        Err(e) => {
            (Policy::default(), Some(format!("{}; the defaults were used", majordomus_records::task::error_chain(&e))))
        }
    };
    let left = left_behind(&repo, &paths, &policy, &record, policy_note);
    Finding::Gone { record, why, left: Box::new(left) }
}

fn left_behind(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    record: &TaskRecord,
    policy_note: Option<String>,
) -> Left {
    let r = measure::measure(repo, paths, policy, TaskState::Active(Box::new(record.clone())));
    let snapshot = &record.snapshot;
    let uncommitted = match (&r.tree, &r.commit.inherited_dirty) {
        (Ok(t), Ok(i)) => Ok(t.dirty.iter().filter(|d| !i.contains(&d.path)).map(|d| d.path.to_string()).collect()),
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    };
    // Inherited means the same content, not only the same name.
    let untracked = match (&r.tree, &r.commit.inherited_untracked) {
        (Ok(t), Ok(Some(i))) => Ok(t.untracked.iter().filter(|p| !i.contains(*p)).map(ToString::to_string).collect()),
        (Ok(t), Ok(None)) => Ok(t
            .untracked
            .iter()
            .filter(|p| !snapshot.untracked.iter().flatten().any(|u| &u.path == *p))
            .map(ToString::to_string)
            .collect()),
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    };
    let unpushed = match (&r.commit.push, &r.bookkeeping.commits_since_start) {
        (Ok(Push::Measured { since_start: Some((listed, _)), .. }), _) => Ok(listed.clone()),
        (Ok(Push::Measured { commits, .. }), _) => Ok(commits.clone()),
        (Ok(Push::NoRemote), Ok((listed, _))) => Ok(listed.clone()),
        (Ok(Push::NoRemote), Err(e)) => Err(e.clone()),
        (Ok(Push::Unborn), _) => Ok(Vec::new()),
        (Err(e), _) => Err(e.clone()),
    };
    let stashes = r.commit.stashes.as_ref().map_err(Clone::clone).map(|s| {
        s.iter()
            .filter(|e| !snapshot.stashes.iter().flatten().any(|c| c == &e.commit))
            .map(|e| format!("stash@{{{}}} ({})", e.index, e.message))
            .collect()
    });
    let branches = r.branches.as_ref().map_err(Clone::clone).map(|b| {
        b.iter()
            .filter(|b| !snapshot.branches.as_ref().is_some_and(|then| then.contains_key(&b.name)))
            .map(|b| b.name.clone())
            .collect()
    });
    let answers = crate::done::answer_all(&r, policy);
    Left { uncommitted, untracked, unpushed, stashes, branches, answers, policy_note }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_records::task::Snapshot;
    use majordomus_testkit::TestRepo;

    fn record(head: &str, owner: Option<Owner>) -> TaskRecord {
        TaskRecord {
            id: "t-dead".into(),
            task: "left behind".into(),
            // Long before anything the test makes: the worktrees, which the
            // snapshot does not hold, are dated by their reflogs against it,
            // so a start later today would change what is measured.
            started_at: "2000-01-01T00:00:00Z".into(),
            head: Some(head.into()),
            snapshot: Snapshot {
                branches: Some([("main".to_string(), head.to_string())].into()),
                ..majordomus_testkit::task_record().snapshot
            },
            owner,
            ..majordomus_testkit::task_record()
        }
    }

    #[test]
    fn a_task_whose_owner_is_gone_is_found_with_what_it_left_and_a_live_one_is_not() {
        let t = TestRepo::with_commit();
        let start = t.head();
        let wt = t
            .path()
            .parent()
            .expect("parent")
            .join(format!("{}-wt", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["worktree", "add", "-q", "-b", "side", wt.to_str().expect("utf8"), "HEAD"]);
        // The main worktree's task: its owner is this test process, alive.
        let me = process::stat(std::process::id()).ok().flatten().map(|s| s.start_time);
        record(&start, Some(Owner { pid: std::process::id(), start_time: me, session: None }))
            .save(&StatePaths::new(t.path()))
            .expect("save");
        // The linked worktree's task: its owner ended.
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let dead = child.id();
        child.wait().expect("wait");
        let mut r = record(&start, Some(Owner { pid: dead, start_time: None, session: None }));
        r.branch = Some("side".into());
        r.save(&StatePaths::new(&wt)).expect("save");
        std::fs::write(wt.join("README"), "edited, never committed\n").expect("write");
        std::fs::write(wt.join("scratch.txt"), "untracked\n").expect("write");
        t.git_in(&wt, &["branch", "leftover"]);

        let repo = majordomus_readings::open(t.path()).expect("open");
        let seen = sweep(&repo).expect("sweep");
        assert_eq!(seen.len(), 2);
        if process::stat(std::process::id()).is_ok() {
            assert!(matches!(seen[0].finding, Finding::Live { .. }), "{:?}", seen[0].finding);
        }
        let Finding::Gone { record, why, left } = &seen[1].finding else {
            panic!("expected gone: {:?}", seen[1].finding)
        };
        assert_eq!(record.id, "t-dead");
        assert!(why.contains(&format!("pid {dead}")), "{why}");
        assert_eq!(left.uncommitted.as_deref(), Ok(&["README".to_string()][..]));
        assert_eq!(left.untracked.as_deref(), Ok(&["scratch.txt".to_string()][..]));
        let branches = left.branches.as_ref().expect("branches");
        assert!(branches.contains(&"leftover".to_string()) && branches.contains(&"side".to_string()), "{branches:?}");
        assert!(!branches.contains(&"main".to_string()));
        std::fs::remove_dir_all(wt).expect("cleanup");
    }

    #[test]
    fn a_record_without_an_owner_counts_as_gone() {
        let t = TestRepo::with_commit();
        record(&t.head(), None).save(&StatePaths::new(t.path())).expect("save");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let seen = sweep(&repo).expect("sweep");
        let Finding::Gone { why, .. } = &seen[0].finding else { panic!("expected gone: {:?}", seen[0].finding) };
        assert!(why.contains("no owner"), "{why}");
    }
}
