//! Taking the commit family's readings. The stash, the operation in
//! progress and what is not pushed do not need the working tree's status:
//! `src/measure.rs` takes them beside it, on the thread of the ref readings;
//! what was dirty at the start is compared once the status is read.

use std::collections::{BTreeMap, BTreeSet};

use majordomus_readings::refs::in_submodules::Left;
use majordomus_readings::refs::submodules::Submodule;
use majordomus_readings::refs::{
    self, Branch, Elsewhere, Head, NoTrunk, Push, RemoteEvidence, Start, Trunk, UpstreamsRewritten,
};
use majordomus_readings::stash::{self, StashEntry};
use majordomus_readings::state::{self, InProgress};
use majordomus_readings::status::{self, WorkingTree};
use majordomus_readings::{Reading, Repo, Unread};
use majordomus_records::task::{DirtyPath, TaskRecord, TaskState, UntrackedPath};
use majordomus_records::{RepoPath, StatePaths};

/// The stash entries now.
pub fn stashes(repo: &Repo) -> Reading<Vec<StashEntry>> {
    stash::read(repo)
}

/// The operations in progress, as `git status` reports them.
pub fn operations(repo: &Repo) -> Reading<Vec<InProgress>> {
    state::operations(repo)
}

/// What of HEAD is not on the remote, and what of that was made since the
/// task's start commit; its walks through the ones kept (`cache.rs`).
pub fn push(
    repo: &Repo,
    paths: &StatePaths,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    evidence: &Reading<RemoteEvidence>,
    record: Option<&TaskRecord>,
) -> Reading<Push> {
    let mut walks = super::cache::KeptWalks::load(repo, paths);
    let push = refs::push(repo, head, branches, trunk, evidence, record.and_then(|r| r.head.as_deref()), &mut walks);
    walks.store(paths);
    push
}

/// The unpushed work this worktree made since the start on branches other
/// than HEAD's. With no task there is no start to measure from: nothing.
pub fn elsewhere(
    repo: &Repo,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    evidence: &Reading<RemoteEvidence>,
    task: &TaskState,
) -> Reading<Elsewhere> {
    let Some(record) = task.record() else { return Ok(Elsewhere::default()) };
    let (head, branches, evidence) = (
        head.as_ref().map_err(Clone::clone)?,
        branches.as_ref().map_err(Clone::clone)?,
        evidence.as_ref().map_err(Clone::clone)?,
    );
    if let Some(reason) = evidence.grafts_reason() {
        return Err(Unread::repository(reason));
    }
    refs::elsewhere(repo, head, branches, evidence, record)
}

/// The submodules whose recorded commit in HEAD changed since the start
/// commit: every one HEAD records where the task started on an unborn
/// HEAD (test/cases/326); then those a commit the task made since moved on
/// a ref that could publish it, HEAD or not (pushed onto the trunk, then
/// taken back from HEAD: test/cases/496). With no task, nothing.
pub fn submodules(
    repo: &Repo,
    head_commit: Option<&str>,
    branches: &Reading<Vec<Branch>>,
    evidence: &Reading<RemoteEvidence>,
    task: &TaskState,
) -> Reading<Vec<Submodule>> {
    let Some(record) = task.record() else { return Ok(Vec::new()) };
    let mut found = match (head_commit, record.head.as_deref()) {
        (None, _) => Vec::new(),
        (Some(head), Some(start)) if refs::has_commit(repo, start) => {
            refs::submodules::changed(repo, head, Some(start), superproject_url(record))?
        }
        (Some(_), Some(start)) => return Err(Unread::start_commit_missing(start)),
        (Some(head), None) => refs::submodules::changed(repo, head, None, superproject_url(record))?,
    };
    let tips = || {
        Ok(publishing_tips(
            head_commit,
            branches.as_ref().map_err(Clone::clone)?,
            evidence.as_ref().map_err(Clone::clone)?,
        ))
    };
    let own = refs::submodules::moved_by_own(repo, record, head_commit, tips, superproject_url(record), &found)?;
    found.extend(own);
    Ok(found)
}

/// The refs a commit made since the start could be published from: HEAD,
/// the branches that moved since the start, and the remote-tracking refs
/// that did (a ref at its start value reaches nothing made since).
fn publishing_tips(head_commit: Option<&str>, branches: &[Branch], evidence: &RemoteEvidence) -> Vec<git2::Oid> {
    let moved_branches = branches.iter().filter(|b| !b.at_start).map(|b| b.commit.as_str());
    let moved_remotes = evidence
        .refs
        .iter()
        .filter(|t| evidence.moved.iter().any(|(name, _)| *name == t.refname))
        .map(|t| t.commit.as_str())
        .chain(evidence.uncounted.iter().map(|(_, id)| id.as_str()));
    let mut tips: Vec<git2::Oid> = head_commit
        .into_iter()
        .chain(moved_branches)
        .chain(moved_remotes)
        .filter_map(|id| git2::Oid::from_str(id).ok())
        .collect();
    tips.sort();
    tips.dedup();
    tips
}

/// What each submodule checked out here holds that the task may have left
/// there, measured from the start snapshot. With no task, only what is in
/// progress in each (`settled` needs no start).
pub fn in_submodules(repo: &Repo, task: &TaskState) -> Reading<Vec<Left>> {
    let Some(record) = task.record() else { return refs::in_submodules::in_progress(repo) };
    refs::in_submodules::left(repo, record, superproject_url(record))
}

/// The superproject's remote URL at the start, which a relative
/// `.gitmodules` URL is resolved against: the trunk's remote's, else
/// origin's (as `git submodule` falls back to origin).
fn superproject_url(record: &majordomus_records::task::TaskRecord) -> Option<&str> {
    start_url(&record.snapshot)
}

/// [`superproject_url`] of a start snapshot (`start` takes it once the
/// remotes and the trunk are in it).
pub fn start_url(snapshot: &majordomus_records::task::Snapshot) -> Option<&str> {
    let remotes = snapshot.remotes.as_ref()?;
    let trunk = snapshot.trunk.as_deref().and_then(|t| t.strip_prefix("refs/remotes/")?.split('/').next());
    trunk.and_then(|t| remotes.get(t)).or_else(|| remotes.get("origin")).map(|r| r.url.as_str())
}

/// Which remote-tracking refs count as evidence of the remotes, measured
/// from the task's start snapshot (with no task: every ref as it is), of
/// the refs `now` ([`refs::remote_refs`]).
pub fn evidence(
    repo: &Repo,
    task: &TaskState,
    now: &Reading<BTreeMap<String, String>>,
    rewritten: &UpstreamsRewritten<'_>,
) -> Reading<RemoteEvidence> {
    let now = now.as_ref().map_err(Clone::clone)?;
    refs::evidence_with(repo, start_of(task), now, rewritten)
}

/// What the evidence of the remotes is read against: the task record's
/// snapshot, or, without a task, every ref as it is.
pub fn start_of(task: &TaskState) -> Start<'_> {
    match task.record() {
        Some(r) => Start::Snapshot(&r.snapshot),
        None => Start::NoTask,
    }
}

/// The upstreams recorded at the start whose reflogs are read on a thread
/// of their own, beside the remote-tracking refs, rather than one by one
/// as the evidence asks ([`UpstreamsRewritten`]): below this many, a
/// thread costs more than it saves.
pub const UPSTREAMS_ON_A_THREAD: usize = 64;

/// Whether `task` recorded enough upstreams for [`UPSTREAMS_ON_A_THREAD`].
pub fn upstreams_on_a_thread(task: &TaskState) -> bool {
    task.record().and_then(|r| r.snapshot.upstream_logs.as_ref()).is_some_and(|l| l.len() >= UPSTREAMS_ON_A_THREAD)
}

/// The dirty paths now that were dirty at the start with the same content
/// (in the index and in the working tree, and the same mode where the
/// record kept it).
pub fn inherited_dirty(repo: &Repo, record: &TaskRecord, tree: &WorkingTree) -> BTreeSet<RepoPath> {
    let Some(then) = &record.snapshot.dirty else { return BTreeSet::new() };
    let by_path: BTreeMap<&RepoPath, &DirtyPath> = then.iter().map(|d| (&d.path, d)).collect();
    tree.dirty
        .iter()
        .filter(|d| {
            by_path
                .get(&d.path)
                .is_some_and(|t| t.index == d.index && same_content(repo, tree, &d.path, t.worktree.as_deref(), t.mode))
        })
        .map(|d| d.path.clone())
        .collect()
}

/// The untracked paths now that were untracked at the start with the same
/// content: a file the task filled since is its work, whatever its name.
/// `None` when the record holds no snapshot of the untracked files.
pub fn inherited_untracked(repo: &Repo, record: &TaskRecord, tree: &WorkingTree) -> Option<BTreeSet<RepoPath>> {
    let then = record.snapshot.untracked.as_ref()?;
    let by_path: BTreeMap<&RepoPath, &UntrackedPath> = then.iter().map(|u| (&u.path, u)).collect();
    Some(
        tree.untracked
            .iter()
            .filter(|p| by_path.get(p).is_some_and(|u| same_content(repo, tree, p, u.worktree.as_deref(), u.mode)))
            .cloned()
            .collect(),
    )
}

/// Whether `path` holds now the content id `then` (and the mode `mode`,
/// where the record kept one and the reading compares modes). Read only
/// for the paths the start named.
fn same_content(repo: &Repo, tree: &WorkingTree, path: &RepoPath, then: Option<&str>, mode: Option<u32>) -> bool {
    let now = status::content_id(repo, path);
    if now.as_deref() != then {
        return false;
    }
    match mode {
        Some(m) if now.is_some() && !tree.modes_ignored => status::worktree_mode(repo, path) == Some(m),
        _ => true,
    }
}

/// HEAD's branch's upstream where git would reject a plain push to it:
/// its tip is not an ancestor of HEAD (a colleague pushed, or the task
/// amended or rebased what it had pushed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Behind {
    /// The upstream's full ref name (`refs/remotes/origin/main`).
    pub upstream: String,
    /// Whether what the upstream holds that HEAD does not is only the
    /// task's own earlier work: every such commit made since the start
    /// commit, and the ref last written by a push from here (no fetch
    /// brought anyone else's commit onto it since).
    pub own_only: bool,
}

/// How many of the upstream's commits HEAD lacks are walked to decide
/// [`Behind::own_only`]: past it, they are not taken for the task's own.
const BEHIND_WALKED: usize = 1000;

/// [`Behind`] for HEAD's branch, read only where `pushed` is owed for HEAD
/// (the push reading found commits of HEAD on no remote) and the branch's
/// upstream exists: one ancestry test, and, where the upstream is not an
/// ancestor, a walk of its commits HEAD lacks. `None` in every other case.
pub fn behind(
    repo: &Repo,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    push: &Reading<Push>,
    record: Option<&TaskRecord>,
) -> Reading<Option<Behind>> {
    let (Ok(Push::Measured { count, .. }), Ok(head), Ok(branches)) = (push, head, branches) else { return Ok(None) };
    let (Some(branch), Some(tip)) = (head.branch.as_deref(), head.commit.as_deref()) else { return Ok(None) };
    let Some(upstream) = branches.iter().find(|b| b.name == branch).and_then(|b| b.upstream.as_ref()) else {
        return Ok(None);
    };
    if *count == 0 || !upstream.exists {
        return Ok(None);
    }
    let git = &repo.git;
    let fail = |e: git2::Error| Unread::git("the upstream's ancestry", &e);
    let theirs = git.refname_to_id(&upstream.refname).map_err(fail)?;
    let ours = git2::Oid::from_str(tip).map_err(fail)?;
    if theirs == ours || git.graph_descendant_of(ours, theirs).map_err(fail)? {
        return Ok(None);
    }
    Ok(Some(Behind {
        upstream: upstream.refname.clone(),
        own_only: own_only(repo, theirs, ours, &upstream.refname, record)?,
    }))
}

/// Whether the commits `theirs` holds and `ours` does not were all made
/// since the task's start commit, and the ref was last written by a push.
fn own_only(
    repo: &Repo,
    theirs: git2::Oid,
    ours: git2::Oid,
    refname: &str,
    record: Option<&TaskRecord>,
) -> Reading<bool> {
    let Some(start) = record.and_then(|r| r.head.as_deref()).and_then(|s| git2::Oid::from_str(s).ok()) else {
        return Ok(false);
    };
    let pushed =
        majordomus_readings::reflog::last_line(&majordomus_readings::reflog::log_of(repo.common_dir(), refname))?
            .is_some_and(|line| line.message.starts_with("update by push"));
    if !pushed {
        return Ok(false);
    }
    let git = &repo.git;
    let fail = |e: git2::Error| Unread::git("the upstream's commits", &e);
    let mut walk = git.revwalk().map_err(fail)?;
    walk.push(theirs).map_err(fail)?;
    walk.hide(ours).map_err(fail)?;
    for (n, id) in walk.enumerate() {
        let id = id.map_err(fail)?;
        // One the start commit reaches was there before the task.
        if n >= BEHIND_WALKED || id == start || git.graph_descendant_of(start, id).map_err(fail)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The full names of the refs git would read otherwise than meant under
/// their short names (`refs/heads/v1.2` beside a tag `v1.2`,
/// `refs/remotes/origin/main` beside a branch `origin/main`): of
/// `candidates`, those whose short name another ref also matches by git's
/// rules for a name (`ref_rev_parse_rules`), which a push refuses as
/// ambiguous ("src refspec matches more than one") and a rebase or a
/// switch takes the other ref for. A remedy names these in full
/// (test/cases/618). Only the refs a remedy is about to name are asked:
/// nothing on the common path.
pub fn shadowed(repo: &Repo, candidates: &BTreeSet<String>) -> Reading<BTreeSet<String>> {
    let mut shadowed = BTreeSet::new();
    for full in candidates {
        let exists = |name: &str| name != full.as_str() && repo.git.find_reference(name).is_ok();
        if same_short_names(full).iter().any(|n| exists(n)) {
            shadowed.insert(full.clone());
        }
    }
    Ok(shadowed)
}

/// The other full names git reads `full`'s short name as (a branch's, or a
/// remote-tracking ref's, short name: `refs/heads/` or `refs/remotes/` cut),
/// in git's order: `refs/S`, `refs/tags/S`, `refs/heads/S`,
/// `refs/remotes/S`, `refs/remotes/S/HEAD`.
pub(crate) fn same_short_names(full: &str) -> Vec<String> {
    let Some(short) = full.strip_prefix("refs/heads/").or_else(|| full.strip_prefix("refs/remotes/")) else {
        return Vec::new();
    };
    ["refs/", "refs/tags/", "refs/heads/", "refs/remotes/"]
        .iter()
        .map(|p| format!("{p}{short}"))
        .chain(std::iter::once(format!("refs/remotes/{short}/HEAD")))
        .filter(|n| n != full)
        .collect()
}

#[cfg(test)]
mod shadowed_tests {
    use super::same_short_names;

    #[test]
    fn a_branch_is_read_beside_a_tag_and_a_remote_tracking_ref_of_its_name() {
        let names = same_short_names("refs/heads/v1.2");
        assert!(names.contains(&"refs/tags/v1.2".to_string()));
        assert!(names.contains(&"refs/remotes/v1.2".to_string()));
        assert!(!names.contains(&"refs/heads/v1.2".to_string()));
    }

    #[test]
    fn a_remote_tracking_ref_is_read_beside_a_branch_of_its_short_name() {
        let names = same_short_names("refs/remotes/origin/main");
        assert!(names.contains(&"refs/heads/origin/main".to_string()));
        assert!(names.contains(&"refs/tags/origin/main".to_string()));
        assert!(!names.contains(&"refs/remotes/origin/main".to_string()));
    }

    #[test]
    fn another_kind_of_ref_is_never_asked() {
        assert!(same_short_names("refs/tags/v1").is_empty());
    }
}
