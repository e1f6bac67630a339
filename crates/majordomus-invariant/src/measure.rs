//! Taking the readings: every piece of I/O `check` does happens here or in
//! a family's `readings.rs`, each reading a `Result` of its own, so one that
//! cannot be taken does not take the others with it. Judging them is
//! `src/done.rs`'s work and the families' `judge.rs`, not this.
//!
//! The working tree's status is most of the work, and none of the ref
//! readings needs it: it is taken on a second thread while this one takes
//! the ref readings; what needs both is taken after.

use majordomus_readings::fingerprint::{self, Fingerprint};
use majordomus_readings::markers::Marker;
use majordomus_readings::refs::{self, Branch, Head, NoTrunk, Trunk};
use majordomus_readings::{changes, status, Reading, Repo, Unread};
use majordomus_records::issue::IssueRef;
use majordomus_records::policy::Policy;
use majordomus_records::task::TaskState;
use majordomus_records::StatePaths;

use crate::deadline::Deadline;
use crate::family::bookkeeping::{self, BookkeepingReadings};
use crate::family::closing::{self, ClosingReadings};
use crate::family::commit::{self, CommitReadings};
use crate::family::integration::{self, Integrated, IntegrationReadings};
use crate::family::verification::{self, VerificationReadings};
use crate::readings::Readings;

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
    let tips = crate::branch_cache::begin(repo, paths, deadline);
    take(repo, paths, policy, task, deadline, tips, false).0
}

/// [`measure_within`], with the document's fingerprint
/// ([`fingerprint::read`]) taken on the way: each part before what reads
/// the same (HEAD and the refs' stamps before any reading, the index's
/// entries before the status), so that anything moving during the
/// measurement makes the cached document read as stale. Hashing the
/// index's entries waits for nothing else: it runs while the ref readings
/// do, not before them (a sixth of `check` on 100,000 files).
///
/// `tips`: the branches' tips, begun before the task record was read
/// ([`crate::branch_cache::begin`]).
pub fn measure_fingerprinted(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: TaskState,
    deadline: Deadline,
    tips: crate::branch_cache::Reader,
) -> (Readings, Fingerprint) {
    let (readings, fingerprint) = take(repo, paths, policy, task, deadline, tips, true);
    (readings, fingerprint.unwrap_or_else(|| fingerprint::read(repo)))
}

fn take(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: TaskState,
    deadline: Deadline,
    tips: crate::branch_cache::Reader,
    with_fingerprint: bool,
) -> (Readings, Option<Fingerprint>) {
    // The refs' stamps but for the files under `refs/heads` and
    // `refs/remotes`, which the readings of the branches and of the
    // remote-tracking refs stat one by one anyway (each before reading it):
    // their newest times are added once they have.
    let cheap = with_fingerprint.then(|| fingerprint::read_cheap_but_walked(repo));
    let head = deadline.read(|| refs::head(repo));
    let record = task.record();
    let head_commit = head.as_ref().ok().and_then(|h| h.commit.clone());
    // The working tree is read on a second thread, through a repository
    // handle of its own (a libgit2 handle is not shared between threads),
    // opened beside this one (`Repo::reopener`), while the ref readings are
    // taken here, through the handle already open: they are the longer
    // where branches are many, and the second handle's open (the whole
    // configuration parsed again, two entries per branch that tracks a
    // remote) is then no longer in their way. The local branches' ref
    // files, which need no handle, are read on a third (`tips`). The
    // fingerprint's index part is taken on the tree's thread, before it.
    let (tree, refs, fingerprint) = std::thread::scope(|scope| {
        let reopener = repo.reopener();
        let task_ref = &task;
        let on_thread = move || match reopener.open() {
            Ok(own) => {
                let fingerprint = with_fingerprint.then(|| fingerprint::head_and_index(&own).ok());
                Some((deadline.read(|| working_tree(&own, task_ref)), fingerprint))
            }
            Err(_) => None,
        };
        let tree = scope.spawn(on_thread);
        let refs = ref_readings(repo, paths, policy, &task, &head, head_commit.as_deref(), deadline, tips);
        let (tree, index_part) = match tree.join() {
            Ok(Some(read)) => read,
            // No second handle: the same reading, here, after the refs'.
            Ok(None) => {
                let fingerprint = with_fingerprint.then(|| fingerprint::head_and_index(repo).ok());
                (deadline.read(|| working_tree(repo, &task)), fingerprint)
            }
            Err(panic) => std::panic::resume_unwind(panic),
        };
        let fingerprint = cheap.zip(index_part).map(|(cheap, index_entries)| Fingerprint { index_entries, ..cheap });
        (tree, refs, fingerprint)
    });
    let RefReadings {
        commits_since_start,
        tree_changed,
        arrival,
        branches,
        evidence,
        push,
        elsewhere,
        submodules,
        in_submodules,
        behind,
        shadowed,
        integrated,
        aside,
        upstreams,
        landed,
        branches_landed,
        stashes,
        operations,
        markers_landed,
        closing,
        heads_newest,
        remotes_newest,
    } = refs;
    let fingerprint = fingerprint.map(|f| f.with_walked(repo, [heads_newest, remotes_newest]));
    let changes = deadline.read(|| match (record, &head, &tree, &arrival) {
        (Some(r), Ok(h), Ok(t), Ok(a)) => {
            changes::since(repo, r.head.as_deref(), h.commit.as_deref(), t, &r.snapshot, a.as_ref())
        }
        (None, ..) => Err(Unread::no_task()),
        (_, Err(e), _, _) | (_, _, Err(e), _) | (_, _, _, Err(e)) => Err(e.clone()),
    });
    let arrived = arrival.as_ref().ok().and_then(|a| a.as_ref()).map(|a| bookkeeping::readings::Arrived {
        count: a.count,
        commits: a.commits.clone(),
        made_elsewhere: a.made_elsewhere,
    });
    // A baseline gone since the start is followed out of the naming pattern
    // among the paths the change added: once the change set is read.
    let closing = ClosingReadings {
        debt: closing.debt.and_then(|debt| deadline.read(|| closing::readings::follow(repo, record, debt, &changes))),
        ..closing
    };
    let inherited_dirty = deadline.read(|| match (record, &tree) {
        (Some(r), Ok(t)) => Ok(commit::readings::inherited_dirty(repo, r, t)),
        (None, _) => Err(Unread::no_task()),
        (_, Err(e)) => Err(e.clone()),
    });
    let inherited_untracked = deadline.read(|| match (record, &tree) {
        (Some(r), Ok(t)) => Ok(commit::readings::inherited_untracked(repo, r, t)),
        (None, _) => Err(Unread::no_task()),
        (_, Err(e)) => Err(e.clone()),
    });
    let verification = match deadline.check() {
        Ok(()) => verification::readings::measure(repo, paths, policy, &task, &tree, &changes),
        Err(e) => VerificationReadings::unread(&e),
    };
    let bookkeeping = match deadline.check() {
        Ok(()) => bookkeeping::readings::measure(
            repo,
            paths,
            policy,
            &task,
            (&changes, &tree, head_commit.as_deref()),
            (commits_since_start, tree_changed, arrived),
            markers_landed,
        ),
        Err(e) => BookkeepingReadings { commits_since_start, tree_changed, arrived, ..BookkeepingReadings::unread(&e) },
    };
    let readings = Readings {
        today: crate::exemptions::today(),
        commit: CommitReadings {
            inherited_dirty,
            inherited_untracked,
            stashes,
            operations,
            push,
            elsewhere,
            submodules,
            in_submodules,
            evidence,
            behind,
            shadowed,
        },
        integration: IntegrationReadings { integrated, aside, upstreams, landed, branches_landed },
        verification,
        closing,
        bookkeeping,
        branches,
        changes,
        tree,
        head,
        task,
    };
    (readings, fingerprint)
}

/// The working tree's status as `check` reads it: for a task, as its start
/// read it (`status::read_since`: a bit, an ignore rule or a setting set
/// since hides nothing), else as git does. `gate run` hashes a gate's
/// inputs over this same reading (`runner::prepare`): a verdict is found
/// again only by an equal hash, so the two must never read the working
/// tree differently (under other ignore rules, say).
pub fn working_tree(repo: &Repo, task: &TaskState) -> Reading<status::WorkingTree> {
    match task.record() {
        Some(r) => status::read_since(
            repo,
            status::Start::of_task(
                r.snapshot.reading.as_ref(),
                r.head.as_deref().and_then(|h| git2::Oid::from_str(h).ok()),
                r.snapshot.submodules.as_ref(),
            ),
        ),
        None => status::read(repo),
    }
}

/// The readings of refs and of what the task left, which do not need the
/// working tree's status: [`measure_within`] takes them alongside it.
struct RefReadings {
    commits_since_start: Reading<(Vec<String>, usize)>,
    tree_changed: Reading<bool>,
    /// What a fetch brought onto HEAD since the start ([`refs::arrived`]).
    arrival: Reading<Option<refs::Arrival>>,
    branches: Reading<Vec<Branch>>,
    evidence: Reading<refs::RemoteEvidence>,
    push: Reading<refs::Push>,
    elsewhere: Reading<refs::Elsewhere>,
    submodules: Reading<Vec<refs::submodules::Submodule>>,
    in_submodules: Reading<Vec<refs::in_submodules::Left>>,
    behind: Reading<Option<commit::readings::Behind>>,
    /// Of the refs the remedies name, those shadowed by another ref of
    /// their short name ([`commit::readings::shadowed`]).
    shadowed: Reading<std::collections::BTreeSet<String>>,
    integrated: Reading<Integrated>,
    aside: Reading<Vec<integration::Aside>>,
    upstreams: Reading<integration::UpstreamsSeen>,
    landed: Reading<Vec<integration::Landed>>,
    branches_landed: Reading<Vec<integration::BranchLanded>>,
    stashes: Reading<Vec<majordomus_readings::stash::StashEntry>>,
    operations: Reading<Vec<majordomus_readings::state::InProgress>>,
    /// The markers the task landed on the trunk around HEAD, for `markers-live`.
    markers_landed: Reading<Vec<Marker>>,
    closing: ClosingReadings,
    /// The newest time under `refs/heads`, as the branch reading stat'ed
    /// it, for the fingerprint.
    heads_newest: Option<u64>,
    /// The same under `refs/remotes`, as the reading of the
    /// remote-tracking refs stat'ed it.
    remotes_newest: Option<u64>,
}

/// The trunk the readings found, where they found one.
fn trunk_of(trunk: &Reading<Result<Trunk, NoTrunk>>) -> Option<&Trunk> {
    trunk.as_ref().ok().and_then(|t| t.as_ref().ok())
}

/// The readings of the refs; `tips`: the local branches' tips, read beside
/// them ([`crate::branch_cache::tips`]).
#[allow(clippy::too_many_arguments)]
fn ref_readings(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: &TaskState,
    head: &Reading<Head>,
    head_commit: Option<&str>,
    deadline: Deadline,
    tips: crate::branch_cache::Reader,
) -> RefReadings {
    // Which remote-tracking refs are evidence of the remotes is read once,
    // for the trunk, `pushed`, `integrated` and `upstream-alive`.
    // So are the remote-tracking refs now: for it and for the branches'
    // upstreams.
    // The upstreams' reflogs, where the start recorded many, are read
    // beside them (they need no repository handle).
    let (remotes, rewritten) = std::thread::scope(|scope| {
        let (common_dir, start) = (repo.common_dir(), commit::readings::start_of(task));
        // Where no thread can be had, the evidence reads each as it asks.
        let rewritten = commit::readings::upstreams_on_a_thread(task)
            .then(|| {
                std::thread::Builder::new()
                    .name("upstream-logs".into())
                    .spawn_scoped(scope, move || crate::branch_cache::upstreams_rewritten(common_dir, paths, start))
                    .ok()
            })
            .flatten();
        let remotes = deadline.read(|| crate::branch_cache::remote_refs(common_dir, paths));
        let rewritten = match rewritten.map(|t| t.join()) {
            Some(Ok(read)) => read,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => refs::UpstreamsRewritten::default(),
        };
        (remotes, rewritten)
    });
    let (remote_now, remotes_newest) = match remotes {
        Ok(r) => (Ok(r.refs), r.newest_mtime_ns),
        Err(e) => (Err(e), None),
    };
    let evidence = deadline.read(|| commit::readings::evidence(repo, task, &remote_now, &rewritten));
    let trunk: Reading<Result<Trunk, NoTrunk>> =
        deadline.read(|| integration::readings::trunk_in_force(repo, policy, task, &evidence));
    // What a fetch brought onto HEAD since the start is not the task's: set
    // apart from the change and from the commits it made. Where the
    // evidence is unread, nothing is (and `pushed` answers unknown).
    let arrival = deadline.read(|| match (task.record(), &evidence) {
        (Some(r), Ok(e)) => refs::arrived(repo, r, head_commit, e),
        _ => Ok(None),
    });
    let (commits_since_start, tree_changed) = match &arrival {
        Ok(None) => (
            deadline.read(|| bookkeeping::readings::commits_since_start(repo, task, head_commit)),
            deadline.read(|| bookkeeping::readings::tree_changed(repo, task, head_commit)),
        ),
        Ok(Some(a)) => (Ok((a.own.clone(), a.own_count)), Ok(a.holds_own)),
        Err(e) => (Err(e.clone()), Err(e.clone())),
    };
    let (branches, heads_newest, symbolic) = match tips.join() {
        Ok(tips) => (
            deadline.read(|| {
                refs::branches_of(
                    repo,
                    tips.tips,
                    remote_now.as_ref().ok(),
                    task.record().and_then(|r| r.snapshot.branches.as_ref()),
                )
            }),
            tips.newest_mtime_ns,
            tips.symbolic,
        ),
        Err(e) => (Err(e), None, Vec::new()),
    };
    // An upstream whose branch a fetch since found gone from its remote,
    // its ref not pruned here, is no evidence of it (test/cases/578-579).
    let stale = deadline.read(|| integration::readings::stale_upstreams(repo, &branches, &evidence));
    let evidence = match (&stale, evidence) {
        (Ok(gone), Ok(mut e)) if !gone.is_empty() => {
            e.gone_from_remote(gone);
            Ok(e)
        }
        (_, e) => e,
    };
    let push = deadline.read(|| commit::readings::push(repo, paths, head, &branches, &trunk, &evidence, task.record()));
    let elsewhere = deadline.read(|| commit::readings::elsewhere(repo, head, &branches, &evidence, task));
    let submodules = deadline.read(|| commit::readings::submodules(repo, head_commit, &branches, &evidence, task));
    let in_submodules = deadline.read(|| commit::readings::in_submodules(repo, task));
    let behind = deadline.read(|| commit::readings::behind(repo, head, &branches, &push, task.record()));
    let integrated =
        deadline.read(|| integration::readings::integrated(repo, paths, task, head, head_commit, &trunk, &evidence));
    let aside =
        deadline.read(|| integration::readings::pushed_aside(repo, paths, task, head_commit, &trunk, &evidence));
    let upstreams = deadline.read(|| integration::readings::upstreams(&branches, &evidence, &stale, task));
    // The commits made around HEAD, read once for the three readings that ask.
    let around = majordomus_readings::refs::attribution::Around::default();
    let landed = deadline.read(|| integration::readings::landed(repo, task, head_commit, &trunk, &evidence, &around));
    let branches_landed =
        deadline.read(|| integration::readings::branches_landed(repo, task, head, &branches, &trunk, &evidence));
    let stashes = deadline.read(|| commit::readings::stashes(repo));
    let operations = deadline.read(|| commit::readings::operations(repo));
    let markers_landed = deadline
        .read(|| bookkeeping::readings::markers_landed(repo, policy, task, head_commit, trunk_of(&trunk), &around));
    let closing = match deadline.check() {
        Ok(()) => closing::readings::measure(
            repo,
            paths,
            policy,
            task,
            closing::readings::RefsRead {
                branches: &branches,
                symbolic: &symbolic,
                evidence: &evidence,
                trunk: trunk_of(&trunk),
                head: head_commit,
                arrival: &arrival,
                around: &around,
            },
        ),
        Err(e) => ClosingReadings::unread(&e),
    };
    let shadowed = deadline.read(|| {
        let names = named_by_remedies(head, &branches, &push, &elsewhere, &behind, &closing, trunk_of(&trunk));
        commit::readings::shadowed(repo, &names)
    });
    RefReadings {
        commits_since_start,
        tree_changed,
        arrival,
        branches,
        evidence,
        push,
        elsewhere,
        submodules,
        in_submodules,
        behind,
        shadowed,
        integrated,
        aside,
        upstreams,
        landed,
        branches_landed,
        stashes,
        operations,
        markers_landed,
        closing,
        heads_newest,
        remotes_newest,
    }
}

/// The refs a remedy names by their short name, where one will: HEAD's
/// branch and its upstream where `pushed` is owed for HEAD, each other
/// branch whose work is unpushed, and the trunk's ref, where a branch made
/// since the start is there (`nothing-accumulated` switches to it before
/// deleting the branch). Empty on the common path: nothing is read.
fn named_by_remedies(
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    push: &Reading<refs::Push>,
    elsewhere: &Reading<refs::Elsewhere>,
    behind: &Reading<Option<commit::readings::Behind>>,
    closing: &ClosingReadings,
    trunk: Option<&Trunk>,
) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    if let (Ok(refs::Push::Measured { count, .. }), Ok(head)) = (push, head) {
        if *count > 0 {
            if let Some(branch) = head.branch.as_deref() {
                names.insert(format!("refs/heads/{branch}"));
                let upstream = branches.as_ref().ok().and_then(|all| all.iter().find(|b| b.name == branch));
                if let Some(u) = upstream.and_then(|b| b.upstream.as_ref()) {
                    names.insert(u.refname.clone());
                }
            }
        }
    }
    if let Ok(Some(b)) = behind {
        names.insert(b.upstream.clone());
    }
    if let Ok(e) = elsewhere {
        names.extend(e.branches.iter().map(|w| format!("refs/heads/{}", w.branch)));
    }
    let made = closing.accumulated.as_ref().is_ok_and(|a| !a.branches.is_empty());
    if let (true, Some(t)) = (made, trunk) {
        names.insert(t.refname.clone());
    }
    names
}

/// The issues a forge observation must answer for the task active in this
/// working tree ([`bookkeeping::readings::issues_to_observe`]), for `forge
/// refresh`: reads the ledger, the markers added since the start and those
/// in the register. With no task, or a ledger that cannot be read, the
/// reason.
pub fn issues_to_observe(repo: &Repo, paths: &StatePaths, policy: &Policy) -> Reading<Vec<IssueRef>> {
    let readings = measure(repo, paths, policy, TaskState::here(paths));
    let b = &readings.bookkeeping;
    let book = b.book.as_ref().map_err(Clone::clone)?;
    let mut markers: Vec<Marker> = b.markers_added.clone().unwrap_or_default();
    if let Some(Ok(all)) = &b.register {
        markers.extend(all.iter().cloned());
    }
    Ok(bookkeeping::readings::issues_to_observe(book, &markers))
}

#[cfg(test)]
mod tests {
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
        assert_eq!(r.commit.push.as_ref().expect_err("cut off").reason, reason);
        assert_eq!(r.commit.stashes.as_ref().expect_err("cut off").reason, reason);
        assert_eq!(r.head.as_ref().expect_err("cut off").kind, majordomus_readings::UnreadKind::Budget);
        let answers = crate::done::answer_all(&r, &Policy::default());
        let settled = answers.iter().find(|a| a.id == "settled").expect("settled");
        assert_eq!(settled.status, crate::Status::Unknown);
        assert!(settled.evidence.contains("time budget of 0 ms"), "{}", settled.evidence);
        assert_eq!(settled.unread_kind(), Some(majordomus_readings::UnreadKind::Budget));
    }

    #[test]
    fn the_fingerprint_taken_on_the_way_is_the_one_taken_before_measuring() {
        let t = TestRepo::with_commit();
        t.write("edited.txt", "not committed\n");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        let before = majordomus_readings::fingerprint::read(&repo);
        let tips = crate::branch_cache::begin(&repo, &paths, Deadline::NONE);
        let (r, on_the_way) =
            measure_fingerprinted(&repo, &paths, &Policy::default(), TaskState::None, Deadline::NONE, tips);
        assert!(r.tree.is_ok());
        assert!(on_the_way.index_entries.is_some(), "the index's entries are hashed");
        assert_eq!(serde_json::to_value(&on_the_way).expect("json"), serde_json::to_value(&before).expect("json"));
        assert!(on_the_way.moved_in(&repo).is_empty(), "nothing moved: {:?}", on_the_way.moved_in(&repo));
    }

    #[test]
    fn a_budget_not_yet_spent_cuts_nothing_off() {
        let t = TestRepo::with_commit();
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        let ample = Deadline::after(std::time::Instant::now(), 600_000);
        let r = measure_within(&repo, &paths, &Policy::default(), TaskState::None, ample);
        assert!(r.head.is_ok() && r.tree.is_ok() && r.commit.stashes.is_ok() && r.commit.operations.is_ok());
        assert!(Deadline::NONE.check().is_ok());
    }

    #[test]
    fn a_trunk_the_policy_names_that_does_not_exist_is_named_in_the_evidence() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        let mut policy = Policy::default();
        policy.trunk = Some(majordomus_records::policy::Trunk { remote: None, branch: Some("develop".into()) });
        let r = measure(&repo, &paths, &policy, TaskState::None);
        let reason = &r.integration.integrated.as_ref().expect_err("no develop").reason;
        assert!(reason.contains(r#"the policy's [trunk] names branch "develop""#), "{reason}");
        assert!(reason.contains("origin/develop or develop"), "{reason}");
        assert!(!reason.contains("origin/master"), "{reason}");
    }
}
