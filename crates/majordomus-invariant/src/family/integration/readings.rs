//! Taking the integration family's readings, on the thread of the ref
//! readings (`src/measure.rs`).

use majordomus_readings::refs::{self, Branch, Head, NoTrunk, RemoteEvidence, Trunk};
use majordomus_readings::trees::Lookup;
use majordomus_readings::{Reading, Repo, Unread, UnreadKind};
use majordomus_records::policy::Policy;
use majordomus_records::task::{TaskRecord, TaskState};
use majordomus_records::StatePaths;

use super::{Integrated, UpstreamsSeen};

/// The trunk, as the policy's `[trunk]` names it or as it is found.
pub fn trunk(repo: &Repo, policy: &Policy) -> Reading<Result<Trunk, NoTrunk>> {
    let t = policy.trunk.clone().unwrap_or_default();
    refs::trunk(repo, t.remote.as_deref(), t.branch.as_deref())
}

/// The trunk in force: the one recorded at the task's start, if any, else
/// the one found now; read at the value the evidence counts it at.
pub fn trunk_in_force(
    repo: &Repo,
    policy: &Policy,
    task: &TaskState,
    evidence: &Reading<RemoteEvidence>,
) -> Reading<Result<Trunk, NoTrunk>> {
    let record = task.record();
    let recorded = record.and_then(|r| r.snapshot.trunk.as_deref());
    let mut found = trunk(repo, policy);
    if let (Some(record), None, None) = (record, recorded, policy.trunk.as_ref().and_then(|t| t.branch.as_ref())) {
        if let Ok(Ok(t)) = &found {
            if let Some(u) = named_since_the_start(&t.refname, record) {
                found = Ok(Err(NoTrunk { undecided: Some(u), ..Default::default() }));
            }
        }
    }
    refs::in_force(repo, found, recorded, evidence)
}

/// A trunk found now where the start recorded none, through a default
/// branch (`<remote>/HEAD`) set since: not taken where the start did not
/// hold that remote-tracking ref (`git remote set-head origin feat`, the
/// task's own pushed branch, made integrated its own work and the trunk's
/// branch of it), or where the start held both `<remote>/main` and
/// `<remote>/master` (undecided, test/cases/544) and it is neither. The
/// conventional names are taken as the search takes them (a first push of
/// a repository's `main` makes its trunk).
fn named_since_the_start(refname: &str, record: &TaskRecord) -> Option<refs::Undecided> {
    let held = record.snapshot.remote_refs.as_ref()?;
    let remote = refname.strip_prefix("refs/remotes/")?.split('/').next()?;
    let conventional = ["main", "master"].map(|b| format!("refs/remotes/{remote}/{b}"));
    if conventional.iter().any(|c| c == refname) {
        return None;
    }
    let both_held = conventional.iter().all(|c| held.contains_key(c));
    if held.contains_key(refname) && !both_held {
        return None;
    }
    let short = |r: &str| r.strip_prefix("refs/remotes/").unwrap_or(r).to_string();
    Some(refs::Undecided {
        remote: remote.to_string(),
        candidates: if both_held { conventional.iter().map(|c| short(c)).collect() } else { Vec::new() },
        named_since: Some(short(refname)),
    })
}

/// Whether the trunk holds HEAD's work (a task's, since its start commit:
/// a trunk that reached HEAD and undid the work since does not). A grafts
/// file makes it unread. The answer for the same HEAD, trunk and start is
/// kept between checks (`cache.rs`).
pub fn integrated(
    repo: &Repo,
    paths: &StatePaths,
    task: &TaskState,
    head: &Reading<Head>,
    head_commit: Option<&str>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    evidence: &Reading<RemoteEvidence>,
) -> Reading<Integrated> {
    if let Some(reason) = evidence.as_ref().ok().and_then(RemoteEvidence::grafts_reason) {
        return Err(Unread::repository(reason));
    }
    let start = task.record().and_then(|r| r.head.as_deref());
    match (head_commit, trunk) {
        (None, _) if head.is_ok() => Ok(Integrated::Unborn),
        (None, _) => Err(head.clone().err().unwrap_or_else(|| Unread::new(UnreadKind::Git, "HEAD could not be read"))),
        (Some(_), Err(e)) => Err(e.clone()),
        (Some(_), Ok(Err(none))) => match &none.undecided {
            Some(u) => Ok(Integrated::Undecided(u.clone())),
            None => Err(Unread::repository(none.reason())),
        },
        (Some(h), Ok(Ok(t))) => {
            let integration = super::cache::integration_since(repo, paths, h, &t.commit, start)?;
            let integration = match (&integration, task.record(), start) {
                (refs::Integration::Reached, Some(record), Some(start)) => {
                    own_work_undone(repo, record, start, t, evidence.as_ref().ok())?.unwrap_or(integration)
                }
                _ => integration,
            };
            Ok(Integrated::Measured { trunk: t.clone(), integration })
        }
    }
}

/// The task's own work is the task's wherever HEAD went: a path a commit
/// this worktree made since the start changed (HEAD's reflog:
/// `made_by_head_since`), a commit the trunk reaches, where no commit made
/// here put the path back as the start had it and the trunk's tip holds it
/// as the start had it, was undone on the trunk, though the trunk reaches
/// HEAD (a colleague's `git revert` of the
/// pushed work, or a `git merge -s ours` of its branch, then pulled: HEAD's
/// tree is then the start's, and HEAD's own change since says nothing;
/// test/cases/456). So was one the trunk's remote-tracking ref held since
/// the start and a fetch took off it (the remote's branch force-pushed
/// back over it), which HEAD does not hold either: `git pull --rebase`
/// after such a push drops the commit as already upstream (git's
/// fork-point reads the ref's reflog), and the next push lands HEAD
/// without it (test/cases/615); taken off by a push from here, it was the
/// task's own doing, as a revert made here is. So was one another
/// remote-tracking ref moved since the start held and a fetch took off,
/// where the trunk reaches that ref's value now: the task's branch's
/// upstream force-pushed back over it, the rebase dropping it, and the
/// branch merged into the trunk without it (test/cases/627). Not kept between checks
/// (the commits made are read from the reflog): a tree comparison per
/// commit made since the start, asked only where the trunk reaches HEAD;
/// the trunk's reflog since the start only where a path is undone by a
/// commit the trunk does not reach, and then the reflogs of the refs
/// moved since the start whose value the trunk reaches.
fn own_work_undone(
    repo: &Repo,
    record: &TaskRecord,
    start: &str,
    trunk_ref: &Trunk,
    evidence: Option<&RemoteEvidence>,
) -> Reading<Option<refs::Integration>> {
    let trunk = trunk_ref.commit.as_str();
    let made = refs::attribution::made_by_head_since(repo, record)?;
    if made.is_empty() {
        return Ok(None);
    }
    let tree_of = |id: git2::Oid| repo.git.find_commit(id).and_then(|c| c.tree()).ok();
    let (Some(start_tree), Some(tip)) =
        (git2::Oid::from_str(start).ok().and_then(tree_of), git2::Oid::from_str(trunk).ok().and_then(tree_of))
    else {
        return Ok(None);
    };
    // Each tree asked at every path has its directories read once.
    let (start_tree, tip) = (Lookup::new(&repo.git, start_tree), Lookup::new(&repo.git, tip));
    let entry = |t: &Lookup<'_>, p: &std::path::Path| t.entry_at(p);
    // Each path a commit made here changed, with the commits that changed
    // it away from the start's; those a commit made here put back.
    let mut changed: std::collections::BTreeMap<std::path::PathBuf, Vec<git2::Oid>> = Default::default();
    let mut put_back = std::collections::BTreeSet::new();
    for c in &made {
        let Ok(commit) = repo.git.find_commit(*c) else { continue };
        if commit.parent_count() != 1 {
            continue;
        }
        let (Ok(tree), Ok(parent)) = (commit.tree(), commit.parent(0).and_then(|p| p.tree())) else { continue };
        let paths = majordomus_readings::trees::changed_paths(&repo.git, Some(&parent), Some(&tree))
            .map_err(|e| Unread::git(&format!("the commit {c}"), &e))?;
        let tree = Lookup::new(&repo.git, tree);
        for p in paths {
            let at =
                std::path::PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(p.as_bytes()));
            if entry(&tree, &at) == entry(&start_tree, &at) {
                put_back.insert(at);
            } else {
                changed.entry(at).or_default().push(*c);
            }
        }
    }
    // Only work the trunk took: a commit it reaches (a spike pushed aside
    // and thrown away was never the trunk's to undo). Asked only of the
    // paths the tip holds as the start had it: where the work landed, of
    // none.
    let trunk_id = git2::Oid::from_str(trunk).map_err(|e| Unread::git(trunk, &e))?;
    let reaches = |from: git2::Oid, c: git2::Oid| from == c || repo.git.graph_descendant_of(from, c).unwrap_or(false);
    let candidates: Vec<(&std::path::PathBuf, &Vec<git2::Oid>)> =
        changed.iter().filter(|(p, _)| !put_back.contains(*p) && entry(&tip, p) == entry(&start_tree, p)).collect();
    if candidates.is_empty() {
        return Ok(None);
    }
    // The refs whose moves since the start are read, the trunk's first,
    // each with its moves (read once, when a path first needs them).
    let mut logs: Option<Vec<(Option<&str>, Moves)>> = None;
    let mut dropped: Option<(git2::Oid, Option<&str>)> = None;
    let mut undone: Vec<String> = Vec::new();
    for (p, by) in candidates {
        let mut taken = by.iter().any(|c| reaches(trunk_id, *c));
        if !taken {
            if logs.is_none() {
                let mut read = vec![(None, trunk_moves(repo, record, trunk_ref)?)];
                for name in merged_branches(repo, evidence, trunk_ref, |at| reaches(trunk_id, at)) {
                    read.push((Some(name), ref_moves(repo, record, name)?));
                }
                logs = Some(read);
            }
            let found = logs.as_deref().unwrap_or_default().iter().find_map(|(name, moves)| {
                by.iter().find(|c| taken_off_by_a_fetch(moves, |at| reaches(at, **c))).map(|c| (*c, *name))
            });
            if let Some(found) = found {
                dropped.get_or_insert(found);
                taken = true;
            }
        }
        if taken {
            undone.push(p.to_string_lossy().into_owned());
        }
    }
    Ok((!undone.is_empty()).then(|| refs::Integration::Undone {
        paths: undone,
        tip: trunk.to_string(),
        dropped: dropped.map(|(c, _)| c.to_string()),
        dropped_from: dropped.and_then(|(_, name)| name).map(str::to_string),
    }))
}

/// A ref's moves since the start, oldest first: each value it took and
/// whether a push from here wrote it.
type Moves = Vec<(git2::Oid, bool)>;

/// The remote-tracking refs other than the trunk's that moved since the
/// start, counted at their value now, which the trunk reaches (`merged`):
/// a branch whose work landed on the trunk.
fn merged_branches<'e>(
    repo: &Repo,
    evidence: Option<&'e RemoteEvidence>,
    trunk: &Trunk,
    merged: impl Fn(git2::Oid) -> bool,
) -> Vec<&'e str> {
    let Some(evidence) = evidence else { return Vec::new() };
    let by_name = evidence.by_name();
    evidence
        .moved
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| *name != trunk.refname && name.starts_with("refs/remotes/"))
        .filter(|name| {
            by_name
                .get(name)
                .filter(|t| t.at_start.is_none())
                .and_then(|t| git2::Oid::from_str(&t.commit).ok())
                .is_some_and(|at| repo.git.find_commit(at).is_ok() && merged(at))
        })
        .collect()
}

/// The moves of the trunk's remote-tracking ref since the start, oldest
/// first: each value it took and whether a push from here wrote it. None
/// for a trunk read at its start value (moved by hand: its reflog says
/// nothing of the remote) or a local one.
fn trunk_moves(repo: &Repo, record: &TaskRecord, trunk: &Trunk) -> Reading<Moves> {
    if trunk.at_start.is_some() || !trunk.refname.starts_with("refs/remotes/") {
        return Ok(Vec::new());
    }
    ref_moves(repo, record, &trunk.refname)
}

/// The moves of the ref `refname` since the start, oldest first, as
/// [`trunk_moves`] reads them.
fn ref_moves(repo: &Repo, record: &TaskRecord, refname: &str) -> Reading<Moves> {
    let Ok(started) = record.started_at() else { return Ok(Vec::new()) };
    let path = majordomus_readings::reflog::log_of(repo.common_dir(), refname);
    let lines = majordomus_readings::reflog::since(&path, started.timestamp() - 1)?;
    Ok(lines
        .iter()
        .rev()
        .filter_map(|l| Some((git2::Oid::from_str(&l.new).ok()?, l.message == "update by push")))
        .collect())
}

/// Whether a commit the trunk's ref held (`held` says of each value it
/// took whether it reaches the commit) was last taken off it by something
/// else than a push from here: a fetch of the remote's branch pushed back
/// over it by another (`git push --force`).
fn taken_off_by_a_fetch(moves: &[(git2::Oid, bool)], held: impl Fn(git2::Oid) -> bool) -> bool {
    let (mut holding, mut by_fetch) = (false, false);
    for (at, pushed) in moves {
        if held(*at) {
            holding = true;
        } else if holding {
            holding = false;
            by_fetch = !pushed;
        }
    }
    !holding && by_fetch
}

/// The branches' upstreams that count as evidence (read as they are now)
/// whose branch a fetch since found gone from their remote, not pruned
/// here (`refs::gone_by_fetch`, test/cases/578-579), with why: the check
/// sets them aside as appeared ([`RemoteEvidence::gone_from_remote`]), for
/// `pushed` as for `upstream-alive`. Read only for the upstreams that
/// would otherwise count.
pub fn stale_upstreams(
    repo: &Repo,
    branches: &Reading<Vec<Branch>>,
    evidence: &Reading<RemoteEvidence>,
) -> Reading<Vec<(String, String)>> {
    let (Ok(branches), Ok(evidence)) = (branches, evidence) else { return Ok(Vec::new()) };
    let by_name = evidence.by_name();
    let counted: std::collections::BTreeSet<&str> = branches
        .iter()
        .filter_map(|b| b.upstream.as_ref().filter(|u| u.exists))
        .map(|u| u.refname.as_str())
        .filter(|r| by_name.get(r).is_some_and(|t| t.at_start.is_none()))
        .collect();
    refs::gone_by_fetch(repo, counted)
}

/// What `upstream-alive` needs beside the branches: the upstreams that
/// exist only by a ref moved by hand since the start, or whose branch a
/// fetch since found gone from their remote (set aside as appeared by
/// [`stale_upstreams`]: `stale` says whether that was read), and those
/// gone at the start.
pub fn upstreams(
    branches: &Reading<Vec<Branch>>,
    evidence: &Reading<RemoteEvidence>,
    stale: &Reading<Vec<(String, String)>>,
    task: &TaskState,
) -> Reading<UpstreamsSeen> {
    let branches = branches.as_ref().map_err(Clone::clone)?;
    let evidence = evidence.as_ref().map_err(Clone::clone)?;
    stale.as_ref().map_err(Clone::clone)?;
    // A ref its remote's standing leaves at its start value (a remote
    // re-pointed since) is still the remote's; one moved since by something
    // else than a fetch or push of it (a fetch that wrote another branch
    // into it, test/cases/280) may stand where a pruned upstream was, so it
    // proves nothing alive either.
    let remote_wide: Vec<&str> = evidence.set_aside.iter().map(|s| s.why.as_str()).collect();
    let by_name = evidence.by_name();
    let appeared: std::collections::BTreeMap<String, String> = branches
        .iter()
        .filter_map(|b| b.upstream.as_ref())
        .filter_map(|u| {
            if let Some(aside) = by_name.set_aside_for(&u.refname).filter(|s| s.appeared) {
                return Some((u.refname.clone(), aside.why.clone()));
            }
            let why = by_name.get(&u.refname)?.at_start.as_deref().filter(|w| !remote_wide.contains(w))?;
            Some((u.refname.clone(), why.to_string()))
        })
        .collect();
    let gone_at_start = task.record().and_then(|r| r.snapshot.gone_upstreams.clone());
    // An upstream set aside because its remote on this machine cannot be
    // read is not gone: whether it is there is unknown (test/cases/612).
    let unreadable = match evidence.unreadable.is_empty() {
        true => std::collections::BTreeMap::new(),
        false => branches
            .iter()
            .filter_map(|b| b.upstream.as_ref())
            .filter(|u| !appeared.contains_key(&u.refname))
            .filter(|u| {
                refs::remote_under(&u.refname, &evidence.remotes_now)
                    .is_some_and(|r| evidence.unreadable.contains_key(r))
            })
            .filter_map(|u| Some((u.refname.clone(), by_name.set_aside_for(&u.refname)?.why.clone())))
            .collect(),
    };
    Ok(UpstreamsSeen { appeared, gone_at_start, unreadable })
}

/// The remote-tracking refs that moved or appeared since the start (and
/// count), other than the trunk's, holding commits this worktree made
/// since the start (HEAD's reflog shows them made) that HEAD does not reach and
/// whose changes the trunk does not hold: work pushed to a branch and left
/// there while HEAD went back. A ref a push from this repository left
/// where it is (its reflog's newest line) holds this repository's work
/// whichever worktree made it (a linked worktree created since the start
/// and removed keeps no reflog to say so, test/cases/324), unless a
/// branch a peer has checked out holds it: a worktree that existed at the
/// start pushes its own work. Cheap when no ref moved.
pub fn pushed_aside(
    repo: &Repo,
    paths: &StatePaths,
    task: &TaskState,
    head_commit: Option<&str>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    evidence: &Reading<RemoteEvidence>,
) -> Reading<Vec<super::Aside>> {
    let (Some(record), Ok(Ok(trunk)), Ok(evidence)) = (task.record(), trunk, evidence) else { return Ok(Vec::new()) };
    let Some(start_refs) = &record.snapshot.remote_refs else { return Ok(Vec::new()) };
    if evidence.grafts.is_some() {
        return Ok(Vec::new());
    }
    let moved: Vec<_> = evidence
        .refs
        .iter()
        .filter(|t| t.at_start.is_none() && start_refs.get(&t.refname) != Some(&t.commit))
        .filter(|t| t.refname != trunk.refname && Some(t.commit.as_str()) != head_commit)
        .collect();
    if moved.is_empty() {
        return Ok(Vec::new());
    }
    let made_here = refs::attribution::made_by_head_since(repo, record)?;
    let mut peers: Option<Vec<git2::Oid>> = None;
    let oid = |s: &str| git2::Oid::from_str(s).map_err(|e| Unread::git(s, &e));
    let head = head_commit.map(oid).transpose()?;
    let trunk_tip = oid(&trunk.commit)?;
    let mut out = Vec::new();
    for t in moved {
        let tip = oid(&t.commit)?;
        let reached = |from: git2::Oid| from == tip || repo.git.graph_descendant_of(from, tip).unwrap_or(false);
        if head.is_some_and(reached) || reached(trunk_tip) {
            continue;
        }
        let mut walk = repo.git.revwalk().map_err(|e| Unread::git("the history", &e))?;
        walk.push(tip).map_err(|e| Unread::git(&t.refname, &e))?;
        for hidden in head.iter().chain([&trunk_tip]) {
            let _ = walk.hide(*hidden);
        }
        let mine = !made_here.is_empty()
            && walk.take(refs::attribution::WALKED).filter_map(Result::ok).any(|c| made_here.contains(&c));
        if !mine {
            let log = majordomus_readings::reflog::log_of(repo.common_dir(), &t.refname);
            let pushed = majordomus_readings::reflog::last_line(&log)
                .ok()
                .flatten()
                .is_some_and(|l| l.message == "update by push" && l.new == t.commit);
            if !pushed {
                continue;
            }
            if peers.is_none() {
                peers = Some(refs::attribution::peer_tips(repo, record)?);
            }
            let a_peers =
                peers.iter().flatten().any(|p| *p == tip || repo.git.graph_descendant_of(*p, tip).unwrap_or(false));
            if a_peers {
                continue;
            }
        }
        match super::cache::integration(repo, paths, &t.commit, &trunk.commit)? {
            refs::Integration::Reached | refs::Integration::Holds { .. } => {}
            refs::Integration::Missing { .. } | refs::Integration::Undone { .. } => {
                out.push(super::Aside { refname: t.refname.clone(), commit: t.commit.clone() })
            }
        }
    }
    Ok(out)
}

/// The paths the commits this repository made since the start changed
/// (`refs::attribution::made_around_head`: HEAD's reflog shows them made,
/// or, where HEAD does not reach the trunk, they were written here since
/// the start under its own address, or HEAD's reflog was rewritten and the
/// trunk holds them under that address), where HEAD does not reach the
/// commit and the trunk's tip holds the path as the commit left it: work
/// that landed on the trunk around HEAD (pushed to the trunk from a branch
/// since deleted or from a linked worktree since removed, or
/// squash-merged), which the change set since the start (HEAD, the index,
/// the working tree) does not show. A merge's change is its own where it
/// differs from every parent (what it took from one side is that side's,
/// an edit slipped into it is the merge's: test/cases/492). Read only for
/// a task that declared a scope.
pub fn landed(
    repo: &Repo,
    task: &TaskState,
    head_commit: Option<&str>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    evidence: &Reading<RemoteEvidence>,
    around: &refs::attribution::Around,
) -> Reading<Vec<super::Landed>> {
    let (Some(record), Ok(Ok(trunk))) = (task.record(), trunk) else { return Ok(Vec::new()) };
    if record.scope.is_empty() || evidence.as_ref().is_ok_and(|e| e.grafts.is_some()) {
        return Ok(Vec::new());
    }
    let oid = |s: &str| git2::Oid::from_str(s).map_err(|e| Unread::git(s, &e));
    let head = head_commit.map(oid).transpose()?;
    let git = &repo.git;
    let trunk_id = oid(&trunk.commit)?;
    let trunk_tree = git
        .find_commit(trunk_id)
        .and_then(|c| c.tree())
        .map_err(|e| Unread::git(&format!("the tree of the trunk's {}", trunk.commit), &e))?;
    let trunk_tree = Lookup::new(git, trunk_tree);
    let at_start = refs::attribution::trunk_at_start(record, &trunk.refname);
    let mut out = Vec::new();
    for commit in refs::attribution::made_around_head(repo, record, head, trunk_id, at_start, around, |_| true)? {
        let c = commit.id();
        let read = |e: git2::Error| Unread::git(&format!("the commit {c}"), &e);
        let tree = Lookup::new(git, commit.tree().map_err(read)?);
        for path in majordomus_readings::trees::own_change(git, &commit).map_err(read)? {
            let at =
                std::path::Path::new(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(path.as_bytes()));
            if trunk_tree.entry_at(at) == tree.entry_at(at) {
                out.push(super::Landed { path, commit: c.to_string() });
            }
        }
    }
    Ok(out)
}

/// How many local branches [`branches_landed`] asks of, at most: a branch
/// past them is read as not landed (`pushed` owes it, `nothing-accumulated`
/// deletes it with `git branch -d`, which refuses work that has not
/// landed), never as landed.
pub const BRANCHES_ASKED: usize = 16;

/// The local branches other than HEAD's that moved or were made since the
/// start (and the task's own branch), whose work the trunk holds: its
/// history reaches the tip, or it holds every path the branch changed
/// since their merge base with the branch's content (squash- or
/// rebase-merged on the forge, the branch left here). Worked out without
/// the integration cache, which keeps HEAD's answer and would lose it to
/// the branches'. A branch whose reading fails is not landed; with no task
/// or no trunk, none is.
pub fn branches_landed(
    repo: &Repo,
    task: &TaskState,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    evidence: &Reading<RemoteEvidence>,
) -> Reading<Vec<super::BranchLanded>> {
    let (Some(record), Ok(Ok(trunk)), Ok(branches)) = (task.record(), trunk, branches) else { return Ok(Vec::new()) };
    if evidence.as_ref().map_or(true, |e| e.grafts.is_some()) {
        return Ok(Vec::new());
    }
    let checked_out = head.as_ref().ok().and_then(|h| h.branch.as_deref());
    let own = record.branch.as_deref();
    let mut out = Vec::new();
    let asked = branches
        .iter()
        .filter(|b| Some(b.name.as_str()) != checked_out)
        .filter(|b| own == Some(b.name.as_str()) || !b.at_start)
        .take(BRANCHES_ASKED);
    for b in asked {
        let held_paths = match refs::integration(repo, &b.commit, &trunk.commit) {
            Ok(refs::Integration::Reached) => None,
            Ok(refs::Integration::Holds { paths, .. }) => Some(paths),
            _ => continue,
        };
        out.push(super::BranchLanded { name: b.name.clone(), commit: b.commit.clone(), held_paths });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use majordomus_records::names::Names;

    use super::{named_since_the_start, taken_off_by_a_fetch};

    #[test]
    fn a_commit_is_taken_off_the_trunk_by_a_fetch_only_where_the_last_move_off_it_was_not_a_push_from_here() {
        let (a, b, c) = (
            git2::Oid::from_bytes(&[1; 20]).expect("an id"),
            git2::Oid::from_bytes(&[2; 20]).expect("an id"),
            git2::Oid::from_bytes(&[3; 20]).expect("an id"),
        );
        // a holds the commit; b and c do not.
        let held = |at: git2::Oid| at == a;
        // Pushed here, then a fetch of a branch pushed back over it.
        assert!(taken_off_by_a_fetch(&[(a, true), (b, false), (c, true)], held));
        // Taken off by a push from here: the task's own doing.
        assert!(!taken_off_by_a_fetch(&[(a, true), (b, true), (c, false)], held));
        // Never held, or held still.
        assert!(!taken_off_by_a_fetch(&[(b, false), (c, true)], held));
        assert!(!taken_off_by_a_fetch(&[(b, false), (a, false)], held));
        assert!(!taken_off_by_a_fetch(&[], held));
        // Held again and taken off again: the last move decides.
        assert!(!taken_off_by_a_fetch(&[(a, true), (b, false), (a, true), (c, true)], held));
    }

    fn started_with(refs: &[&str]) -> majordomus_records::task::TaskRecord {
        let mut r = crate::fixtures::record();
        r.snapshot.trunk = None;
        r.snapshot.remote_refs = Some(refs.iter().map(|n| (n.to_string(), "a".repeat(40))).collect::<Names>());
        r
    }

    #[test]
    fn a_default_branch_set_since_a_start_with_no_trunk_names_only_what_the_start_held() {
        let undecided = started_with(&["refs/remotes/origin/main", "refs/remotes/origin/master"]);
        let named = named_since_the_start("refs/remotes/origin/feat", &undecided).expect("not taken");
        assert_eq!(named.named_since.as_deref(), Some("origin/feat"));
        assert_eq!(named.candidates, ["origin/main", "origin/master"]);
        // A third branch held at the start is not one of the two either.
        let with_stable =
            started_with(&["refs/remotes/origin/main", "refs/remotes/origin/master", "refs/remotes/origin/stable"]);
        assert!(named_since_the_start("refs/remotes/origin/stable", &with_stable).is_some());
        assert_eq!(named_since_the_start("refs/remotes/origin/master", &undecided), None);
        // Neither conventional name at the start: a branch it held is taken, one made since is not.
        let develop = started_with(&["refs/remotes/origin/develop"]);
        assert_eq!(named_since_the_start("refs/remotes/origin/develop", &develop), None);
        let made = named_since_the_start("refs/remotes/origin/feat", &develop).expect("not taken");
        assert!(made.candidates.is_empty() && made.reason().contains("origin/HEAD names origin/feat now"));
        // A first push of main is the trunk, as the search finds it.
        assert_eq!(named_since_the_start("refs/remotes/origin/main", &develop), None);
        // A record that kept no remote-tracking refs: read as before.
        let mut old = develop.clone();
        old.snapshot.remote_refs = None;
        assert_eq!(named_since_the_start("refs/remotes/origin/feat", &old), None);
    }
}
