//! Taking the readings: every piece of I/O `check` does happens here, each
//! reading a `Result` of its own, so one that cannot be taken does not take
//! the others with it. Judging them is [`crate::done`]'s work, not this.

use std::collections::BTreeSet;

use majordomus_readings::refs::{self, Branch, Head, Integration, NoTrunk, Trunk};
use majordomus_readings::stash::{self, StashEntry};
use majordomus_readings::status::{self, WorkingTree};
use majordomus_readings::{baselines, changes, worktrees, Reading, Repo, Unread};
use majordomus_records::policy::Policy;
use majordomus_records::task::{DirtyPath, Snapshot, TaskRecord, TaskState, UntrackedPath};
use majordomus_records::StatePaths;

/// Everything `check` read, each reading on its own.
#[derive(Debug)]
pub struct Readings {
    pub task: TaskState,
    pub head: Reading<Head>,
    pub tree: Reading<WorkingTree>,
    /// Paths changed since the start, and those inherited from before it.
    pub changes: Reading<changes::ChangeSet>,
    /// Dirty paths now that were dirty at the start with the same content.
    pub inherited_dirty: Reading<BTreeSet<String>>,
    pub stashes: Reading<Vec<StashEntry>>,
    /// The operation in progress (`merge`, `rebase`, …), if any.
    pub operation: Reading<Option<String>>,
    pub branches: Reading<Vec<Branch>>,
    pub push: Reading<Push>,
    pub integration: Reading<Integrated>,
    /// Commits on HEAD since the start commit: listed ids and the count.
    pub commits_since_start: Reading<(Vec<String>, usize)>,
    /// The local calendar date `check` ran on: exemptions hold until a date.
    pub today: chrono::NaiveDate,
    /// The policy's exemptions at the task's start (`None`: no task record).
    pub exemptions_at_start: Reading<Option<Vec<majordomus_records::policy::Exemption>>>,
    pub verification: crate::verification::VerificationReadings,
    pub closing: crate::closing::ClosingReadings,
    pub bookkeeping: crate::bookkeeping::BookkeepingReadings,
}

/// What HEAD's commits were compared with, and what is not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Push {
    /// The repository has no remote: nothing can be pushed.
    NoRemote,
    /// HEAD has no commit yet.
    Unborn,
    Measured {
        /// The full ref name compared with.
        against: String,
        /// `upstream`, or why the trunk was used instead.
        how: String,
        commits: Vec<String>,
        count: usize,
        /// Of those, the ones made since the start commit (`None`: no start
        /// to measure from); the rest were already unpushed at the start.
        since_start: Option<(Vec<String>, usize)>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Integrated {
    Unborn,
    Measured { trunk: Trunk, integration: Integration },
}

/// Takes every reading `check` needs.
pub fn measure(repo: &Repo, paths: &StatePaths, policy: &Policy, task: TaskState) -> Readings {
    measure_within(repo, paths, policy, task, Deadline::NONE)
}

/// Takes every reading `check` needs, checking the deadline between
/// readings: once it has passed, each reading not yet taken is unread and
/// says the time budget ran out (a family of readings counts as one).
pub fn measure_within(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: TaskState,
    deadline: Deadline,
) -> Readings {
    let head = deadline.read(|| refs::head(repo));
    let record = task.record();
    let head_commit = head.as_ref().ok().and_then(|h| h.commit.clone());
    // The working tree's status is most of the work, and none of the ref
    // readings needs it: they are taken on a second thread, through a
    // repository handle of their own (a libgit2 handle is not shared
    // between threads), while this one reads the working tree.
    let (tree, refs) = std::thread::scope(|scope| {
        let refs = repo.reopen().ok().map(|own| {
            let (head, head_commit, task) = (&head, &head_commit, &task);
            scope.spawn(move || ref_readings(&own, paths, policy, task, head, head_commit.as_deref(), deadline))
        });
        let tree = deadline.read(|| status::read(repo));
        let refs = match refs.map(|h| h.join()) {
            Some(Ok(refs)) => refs,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            // No second handle: the same readings, one after the other.
            None => ref_readings(repo, paths, policy, &task, &head, head_commit.as_deref(), deadline),
        };
        (tree, refs)
    });
    let RefReadings { commits_since_start, branches, push, integration, stashes, operation, closing } = refs;
    let changes = deadline.read(|| match (record, &head, &tree) {
        (Some(r), Ok(h), Ok(t)) => changes::since(repo, r.head.as_deref(), h.commit.as_deref(), t, &r.snapshot),
        (None, _, _) => Err(Unread::no_task()),
        (_, Err(e), _) | (_, _, Err(e)) => Err(e.clone()),
    });
    let inherited_dirty = deadline.read(|| match (record, &tree) {
        (Some(r), Ok(t)) => Ok(inherited_dirty(repo, r, t)),
        (None, _) => Err(Unread::no_task()),
        (_, Err(e)) => Err(e.clone()),
    });
    let verification = match deadline.check() {
        Ok(()) => crate::verification::measure(repo, paths, policy, &task, &tree, &changes),
        Err(e) => crate::verification::VerificationReadings::unread(&e),
    };
    let bookkeeping = match deadline.check() {
        Ok(()) => crate::bookkeeping::measure(repo, paths, policy, &task, &changes, &tree),
        Err(e) => crate::bookkeeping::BookkeepingReadings::unread(&e),
    };
    // Only an exemption asks what the policy held at the start.
    let exemptions_at_start = match policy.exempt.is_empty() {
        true => Ok(None),
        false => deadline.read(|| crate::exemptions::at_start(repo, &task)),
    };
    Readings {
        today: chrono::Local::now().date_naive(),
        exemptions_at_start,
        verification,
        closing,
        bookkeeping,
        push,
        integration,
        stashes,
        operation,
        branches,
        commits_since_start,
        inherited_dirty,
        changes,
        tree,
        head,
        task,
    }
}

/// The readings of refs and of what the task left, which do not need the
/// working tree's status: [`measure_within`] takes them alongside it.
struct RefReadings {
    commits_since_start: Reading<(Vec<String>, usize)>,
    branches: Reading<Vec<Branch>>,
    push: Reading<Push>,
    integration: Reading<Integrated>,
    stashes: Reading<Vec<StashEntry>>,
    operation: Reading<Option<String>>,
    closing: crate::closing::ClosingReadings,
}

fn ref_readings(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: &TaskState,
    head: &Reading<Head>,
    head_commit: Option<&str>,
    deadline: Deadline,
) -> RefReadings {
    let record = task.record();
    let trunk = deadline.read(|| trunk(repo, policy));
    let commits_since_start = deadline.read(|| match (record, head_commit) {
        (None, _) => Err(Unread::no_task()),
        (Some(_), None) => Ok((Vec::new(), 0)),
        (Some(r), Some(h)) => match r.head.as_deref() {
            Some(start) if !refs::has_commit(repo, start) => Err(Unread::start_commit_missing(start)),
            start => refs::commits_not_on(repo, h, start),
        },
    });
    let branches = deadline.read(|| refs::branches(repo));
    let push = deadline.read(|| push(repo, head, &branches, &trunk, record.and_then(|r| r.head.as_deref())));
    let integration = deadline.read(|| match (head_commit, &trunk) {
        (None, _) if head.is_ok() => Ok(Integrated::Unborn),
        (None, _) => Err(head
            .clone()
            .err()
            .unwrap_or_else(|| Unread::new(majordomus_readings::UnreadKind::Git, "HEAD could not be read"))),
        (Some(_), Err(e)) => Err(e.clone()),
        (Some(_), Ok(Err(none))) => Err(Unread::repository(none.reason())),
        (Some(h), Ok(Ok(t))) => refs::integration(repo, h, &t.commit)
            .map(|integration| Integrated::Measured { trunk: t.clone(), integration }),
    });
    let stashes = deadline.read(|| stash::read(repo));
    let operation = deadline.read(|| majordomus_readings::state::operation(repo));
    let closing = match deadline.check() {
        Ok(()) => crate::closing::measure(repo, paths, policy, task, &branches),
        Err(e) => crate::closing::ClosingReadings::unread(&e),
    };
    RefReadings { commits_since_start, branches, push, integration, stashes, operation, closing }
}

// ---- the time budget -------------------------------------------------------

/// When measuring has to stop. A stop hook answers within its host's
/// timeout or not at all, so it measures within a budget: past the deadline
/// every reading not yet taken is [`Unread`], naming the budget, and its
/// question answers `unknown` like any other reading that was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    at: Option<(std::time::Instant, u64)>,
}

impl Deadline {
    /// No deadline: every reading is taken.
    pub const NONE: Deadline = Deadline { at: None };

    /// `budget_ms` milliseconds after `start`.
    pub fn after(start: std::time::Instant, budget_ms: u64) -> Self {
        Deadline { at: Some((start + std::time::Duration::from_millis(budget_ms), budget_ms)) }
    }

    /// `Err` once the deadline has passed, with the reason a reading gives.
    pub fn check(&self) -> Result<(), Unread> {
        match self.at {
            Some((at, budget_ms)) if std::time::Instant::now() >= at => Err(Unread::budget(budget_ms)),
            _ => Ok(()),
        }
    }

    /// Takes a reading unless the deadline has passed.
    pub fn read<T>(&self, reading: impl FnOnce() -> Reading<T>) -> Reading<T> {
        self.check()?;
        reading()
    }
}

/// The readings of a repository that cannot be opened (a format the git
/// library cannot read): every one unread, for that reason.
pub fn unreadable(task: TaskState, reason: &str) -> Readings {
    let unread = || Unread::repository(reason);
    let why = unread();
    Readings {
        task,
        today: chrono::Local::now().date_naive(),
        exemptions_at_start: Err(unread()),
        head: Err(unread()),
        tree: Err(unread()),
        changes: Err(unread()),
        inherited_dirty: Err(unread()),
        stashes: Err(unread()),
        operation: Err(unread()),
        branches: Err(unread()),
        push: Err(unread()),
        integration: Err(unread()),
        commits_since_start: Err(unread()),
        verification: crate::verification::VerificationReadings::unread(&why),
        closing: crate::closing::ClosingReadings::unread(&why),
        bookkeeping: crate::bookkeeping::BookkeepingReadings::unread(&why),
    }
}

fn trunk(repo: &Repo, policy: &Policy) -> Reading<Result<Trunk, NoTrunk>> {
    let t = policy.trunk.clone().unwrap_or_default();
    refs::trunk(repo, t.remote.as_deref(), t.branch.as_deref())
}

fn inherited_dirty(repo: &Repo, record: &TaskRecord, tree: &WorkingTree) -> BTreeSet<String> {
    let Some(then) = &record.snapshot.dirty else { return BTreeSet::new() };
    tree.dirty
        .iter()
        .filter(|d| {
            then.iter()
                .any(|t| t.path == d.path && t.worktree == status::content_id(repo, &d.path) && t.index == d.index)
        })
        .map(|d| d.path.clone())
        .collect()
}

fn push(
    repo: &Repo,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    start: Option<&str>,
) -> Reading<Push> {
    let head = head.as_ref().map_err(Clone::clone)?;
    let Some(commit) = &head.commit else { return Ok(Push::Unborn) };
    if refs::remotes(repo)?.is_empty() {
        return Ok(Push::NoRemote);
    }
    let upstream = match &head.branch {
        Some(name) => {
            let branches = branches.as_ref().map_err(Clone::clone)?;
            branches.iter().find(|b| &b.name == name).and_then(|b| b.upstream.clone())
        }
        None => None,
    };
    let (against, how) = match upstream {
        Some(u) if u.exists => (u.refname, "its upstream".to_string()),
        other => {
            let why = match other {
                Some(u) => format!("its upstream {} is gone, so the trunk", u.refname),
                None if head.branch.is_none() => "HEAD is detached, so the trunk".to_string(),
                None => "it has no upstream, so the trunk".to_string(),
            };
            match trunk.as_ref().map_err(Clone::clone)? {
                Ok(t) if t.refname.starts_with("refs/remotes/") => (t.refname.clone(), why),
                _ => {
                    return Err(Unread::repository(format!(
                        "HEAD's branch has no upstream and no remote-tracking trunk was found ({why} cannot be used)"
                    )))
                }
            }
        }
    };
    let target = repo.git.refname_to_id(&against).map_err(|e| Unread::git(&against, &e))?.to_string();
    let (commits, count) = refs::commits_not_on(repo, commit, Some(&target))?;
    let since_start = match start {
        Some(start) if count > 0 && refs::has_commit(repo, start) => {
            Some(refs::commits_not_on_either(repo, commit, &target, start)?)
        }
        Some(_) if count > 0 => None,
        _ => Some((commits.clone(), count)),
    };
    Ok(Push::Measured { against, how, commits, count, since_start })
}

/// A start snapshot, and the parts of it that could not be read, each
/// named with why.
#[derive(Debug)]
pub struct Taken {
    pub snapshot: Snapshot,
    /// What each part left out is (`dirty and untracked paths`, ...) and why.
    pub unread: Vec<(&'static str, Unread)>,
}

/// Takes the start snapshot `start` records: what the repository already
/// held, so that none of it is later counted against the task.
///
/// Each part is a reading of its own: a part that could not be read is left
/// out (`None`, never recorded as empty) and named in [`Taken::unread`],
/// and takes no other part with it. A repository whose status cannot be
/// read (a file name that is not UTF-8, a split index) still gets a task.
pub fn snapshot(repo: &Repo, policy: &Policy) -> Taken {
    let mut unread = Vec::new();
    let mut kept = |what: &'static str, reading: Result<(), Unread>| {
        if let Err(e) = reading {
            unread.push((what, e));
        }
    };
    let mut snapshot = Snapshot::default();
    let head = refs::head(repo);
    let branches = refs::branches(repo);
    // Taken before the branches are moved into the snapshot: `push` reads them.
    let unpushed = match (&head, &branches) {
        (Ok(_), Ok(_)) => match push(repo, &head, &branches, &trunk(repo, policy), None) {
            Ok(Push::Measured { commits, .. }) => Ok(commits),
            Ok(Push::NoRemote | Push::Unborn) => Ok(Vec::new()),
            Err(e) => Err(e),
        },
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    };
    kept(
        "dirty and untracked paths",
        status::read(repo).map(|tree| {
            snapshot.dirty = Some(
                tree.dirty
                    .iter()
                    .map(|d| DirtyPath {
                        path: d.path.clone(),
                        index: d.index.clone(),
                        worktree: status::content_id(repo, &d.path),
                    })
                    .collect(),
            );
            snapshot.untracked = Some(
                tree.untracked
                    .iter()
                    .map(|p| UntrackedPath { path: p.clone(), worktree: status::content_id(repo, p) })
                    .collect(),
            );
        }),
    );
    kept("branches", branches.map(|b| snapshot.branches = Some(b.into_iter().map(|b| (b.name, b.commit)).collect())));
    kept("worktrees", worktrees::read(repo).map(|w| snapshot.worktrees = Some(w)));
    kept("stashes", stash::read(repo).map(|s| snapshot.stashes = Some(s.into_iter().map(|s| s.commit).collect())));
    kept("unpushed commits", unpushed.map(|u| snapshot.unpushed = Some(u)));
    kept("debt baselines", baselines::read_worktree(repo).map(|b| snapshot.baselines = Some(b)));
    Taken { snapshot, unread }
}

#[cfg(test)]
mod deadline_tests {
    use majordomus_records::{Policy, StatePaths, TaskState};
    use majordomus_testkit::TestRepo;

    use super::*;

    #[test]
    fn past_the_deadline_every_reading_is_unread_and_names_the_budget() {
        let t = TestRepo::with_commit();
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        let spent = Deadline::after(std::time::Instant::now(), 0);
        let r = measure_within(&repo, &paths, &Policy::default(), TaskState::None, spent);
        let reason = "the time budget of 0 ms ran out before this was read";
        assert_eq!(r.head.as_ref().expect_err("cut off").reason, reason);
        assert_eq!(r.tree.as_ref().expect_err("cut off").reason, reason);
        assert_eq!(r.push.as_ref().expect_err("cut off").reason, reason);
        assert_eq!(r.stashes.as_ref().expect_err("cut off").reason, reason);
        assert_eq!(r.head.as_ref().expect_err("cut off").kind, majordomus_readings::UnreadKind::Budget);
        let answers = crate::done::answer_all(&r, &Policy::default());
        let settled = answers.iter().find(|a| a.id == "settled").expect("settled");
        assert_eq!(settled.status, crate::Status::Unknown);
        assert!(settled.evidence.contains("time budget of 0 ms"), "{}", settled.evidence);
        assert_eq!(settled.unread_kind(), Some(majordomus_readings::UnreadKind::Budget));
    }

    #[test]
    fn a_budget_not_yet_spent_cuts_nothing_off() {
        let t = TestRepo::with_commit();
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        let ample = Deadline::after(std::time::Instant::now(), 600_000);
        let r = measure_within(&repo, &paths, &Policy::default(), TaskState::None, ample);
        assert!(r.head.is_ok() && r.tree.is_ok() && r.stashes.is_ok() && r.operation.is_ok());
        assert!(Deadline::NONE.check().is_ok());
    }
}

#[cfg(test)]
mod trunk_and_snapshot_tests {
    use majordomus_records::{Policy, StatePaths, TaskState};
    use majordomus_testkit::TestRepo;

    use super::*;

    #[test]
    fn a_trunk_the_policy_names_that_does_not_exist_is_named_in_the_evidence() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        let mut policy = Policy::default();
        policy.trunk = Some(majordomus_records::policy::Trunk { remote: None, branch: Some("develop".into()) });
        let r = measure(&repo, &paths, &policy, TaskState::None);
        let reason = &r.integration.as_ref().expect_err("no develop").reason;
        assert!(reason.contains(r#"the policy's [trunk] names branch "develop""#), "{reason}");
        assert!(reason.contains("origin/develop or develop"), "{reason}");
        assert!(!reason.contains("origin/master"), "{reason}");
    }

    #[test]
    fn unpushed_commits_the_snapshot_could_not_read_are_left_out_not_recorded_as_none() {
        let t = TestRepo::with_commit();
        // A remote never fetched: no upstream and no remote-tracking trunk.
        t.git(&["remote", "add", "gh", "/nonexistent/gh.git"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert_eq!(taken.snapshot.unpushed, None);
        assert_eq!(taken.unread.iter().map(|(what, _)| *what).collect::<Vec<_>>(), ["unpushed commits"]);
        assert!(taken.snapshot.dirty.is_some() && taken.snapshot.stashes.is_some());
        let t = TestRepo::with_commit();
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert_eq!(taken.snapshot.unpushed, Some(vec![]));
        assert!(taken.unread.is_empty(), "{:?}", taken.unread);
    }

    #[test]
    fn a_status_the_snapshot_cannot_read_leaves_out_dirty_and_untracked_and_nothing_else() {
        use std::os::unix::ffi::OsStrExt;
        let t = TestRepo::with_commit();
        std::fs::write(t.path().join(std::ffi::OsStr::from_bytes(b"bad-\xff")), "x\n").expect("write");
        t.write("README", "dirty\n");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert_eq!((&taken.snapshot.dirty, &taken.snapshot.untracked), (&None, &None));
        let [(what, why)] = taken.unread.as_slice() else { panic!("{:?}", taken.unread) };
        assert_eq!(*what, "dirty and untracked paths");
        assert!(why.reason.contains("bad-\\xff"), "{why}");
        let s = &taken.snapshot;
        assert!(s.branches.is_some() && s.worktrees.is_some() && s.stashes.is_some());
        assert!(s.unpushed.is_some() && s.baselines.is_some());
    }

    #[test]
    fn a_split_index_leaves_out_dirty_and_untracked_and_nothing_else() {
        let t = TestRepo::with_commit();
        t.git(&["update-index", "--split-index"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert_eq!(taken.unread.iter().map(|(what, _)| *what).collect::<Vec<_>>(), ["dirty and untracked paths"]);
        assert!(taken.snapshot.dirty.is_none() && taken.snapshot.branches.is_some());
    }
}
