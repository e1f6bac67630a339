//! Taking the closing readings: the debt baselines at the start and now,
//! every local branch and linked worktree with its reflog's date, and the
//! recorded forge observation. What each is and is not: `mod.rs`.

use chrono::{DateTime, Utc};

use std::collections::{BTreeSet, HashSet};

use majordomus_readings::baselines::{self, Baselines, Entry, Link};
use majordomus_readings::changes::ChangeSet;

use majordomus_readings::reflog::{self, Dating};
use majordomus_readings::{refs, renames, worktrees, Reading, Repo, Unread};
use majordomus_records::forge::Observation;
use majordomus_records::names::Names;
use majordomus_records::paths::{is_own_state, REPO_DIR};
use majordomus_records::policy::{Policy, Provider};
use majordomus_records::task::{error_chain, TaskRecord, TaskState};
use majordomus_records::StatePaths;

use super::ClosingReadings;
use crate::family::verification::test_path;

/// The debt baselines at the start and now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Debt {
    /// Each baseline's entries at the start, by path.
    pub start: Baselines,
    pub start_from: StartFrom,
    /// Each baseline's entries in the working tree now, by path; with each
    /// file a baseline left the naming pattern for ([`Moved::left_pattern`]).
    pub now: Baselines,
    /// The symbolic links the baselines now were read through.
    pub links: Vec<Link>,
    /// Baselines at the start that live at another path now.
    pub moved: Vec<Moved>,
    /// Files out of the naming pattern read as baselines new since the
    /// start because they hold entries of a baseline gone from its path
    /// ([`follow`]): each compared, as a new baseline fed by them, with the
    /// copies taken out of the start's baselines.
    pub followed: Vec<Moved>,
    /// Baselines that appeared since the start and cannot be told from one
    /// moved from a baseline gone since the start (see `pair_leftovers`):
    /// each is compared with the entries of every baseline gone and left
    /// unpaired, never taken for new.
    pub undecided: Vec<String>,
    /// Entries the start snapshot held uncommitted that the task committed
    /// since (HEAD holds them, the start commit did not): taken out of
    /// `start`, they are the task's ([`committed_since`]).
    pub committed: Vec<Entry>,
    /// Entries a fetch brought since the start (a colleague's, pulled):
    /// read as the start's, not the task's ([`with_arrived`]).
    pub arrived: Vec<Entry>,
    /// Entries the task put on the trunk around HEAD ([`with_landed`]).
    pub landed: Vec<LandedEntry>,
    /// Copies of entries HEAD's commit holds at a baseline past those the
    /// working tree's file holds, by path: held now beside the file's
    /// entries ([`held_by_head`]), not in `now`.
    pub head_only: Vec<(String, Entry)>,
}

/// An entry a commit this worktree made since the start added to a
/// baseline, which HEAD does not reach and the trunk's tip holds: debt
/// landed on the trunk from a branch since left (`git push origin
/// debt:main`, a squash-merge), which the working tree never shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LandedEntry {
    /// The baseline the commit added it to.
    pub path: String,
    pub entry: Entry,
    pub commit: String,
}

/// Where the start's baselines were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartFrom {
    /// The task record's start snapshot: the working tree as it was.
    Snapshot,
    /// The start snapshot as an older majordomus wrote it, its entries as
    /// text: an entry that was not UTF-8 was decoded lossily then, so it
    /// can only differ from its bytes now (counted as added), never match
    /// another.
    SnapshotAsText,
    /// The start commit (the record holds no snapshot of the baselines).
    Commit(String),
    /// HEAD had no commit at the start and the record holds no snapshot.
    Unborn,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub from: String,
    pub to: String,
    /// `git rename detection`, `shared entries`, the entries a file the
    /// start held gained since ([`follow`]), or [`BY_ELIMINATION`].
    pub by: &'static str,
    /// Moved to a path not named as a baseline (`*-baseline.txt` under
    /// `.ai/repo`): followed there ([`follow`]), and read as one.
    pub left_pattern: bool,
}

/// The local branches and linked worktrees now, with their reflogs' dates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accumulated {
    /// Every local branch that may count as made since the start: each but
    /// those at the very commit the start snapshot holds for them (the
    /// start's own, whatever their reflogs say), which are only counted.
    pub branches: Vec<Made>,
    /// How many local branches were left out of `branches` as the start's.
    pub unchanged_branches: usize,
    pub worktrees: Vec<Made>,
    /// Every branch of a remote that a push from this repository made since
    /// the start and that the remote still holds, as its counted
    /// remote-tracking ref says (`origin/feat`; a branch fetched is
    /// another's, one there at the start is not new).
    pub remote_branches: Vec<Pushed>,
    /// The symbolic refs under `refs/heads` (`alias -> main`), dated by
    /// their files' change times ([`aliases`]).
    pub aliases: Vec<Made>,
}

/// A remote branch a push from here made since the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pushed {
    /// Its remote-tracking ref, `refs/remotes/origin/feat`.
    pub refname: String,
    pub remote: String,
    /// Its name on the remote, `feat`.
    pub branch: String,
    pub commit: String,
    /// When the push made it.
    pub made_at: DateTime<Utc>,
    /// Whether the trunk reaches its commit or holds what it changed (a
    /// squash or rebase merge): its work has landed, so deleting it loses
    /// nothing.
    pub landed: bool,
    /// Its remote is a push mirror (`git remote add --mirror=push`): `git
    /// push --delete` is refused there, and `git push` deletes it, the
    /// branch being gone here.
    pub mirror: bool,
}

/// The symbolic refs under `refs/heads` (`symbolic`, from the branches'
/// walk), each dated by its file's change time (a symbolic ref keeps no
/// reflog of its own; the change time is set by the file's last write and
/// no command sets it back), `at` its target as the file names it.
fn aliases(repo: &Repo, symbolic: &[(String, i64)]) -> Vec<Made> {
    symbolic
        .iter()
        .map(|(name, ctime)| {
            let short = name.strip_prefix("refs/heads/").unwrap_or(name).to_string();
            let text = majordomus_readings::file::read(&repo.common_dir().join(name)).unwrap_or_default();
            let target = String::from_utf8_lossy(&text).trim().strip_prefix("ref:").unwrap_or("").trim().to_string();
            let dating = DateTime::from_timestamp(*ctime, 0)
                .map_or(Dating::Undated("its file's change time cannot be read"), Dating::FirstLogged);
            Made { name: short, at: target, dating, missing: false, detached: false, written: None }
        })
        .collect()
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
    /// A worktree whose HEAD is detached (or cannot be read): the commits
    /// made there may be kept by nothing but that HEAD, which removing (or
    /// pruning) the worktree deletes.
    pub detached: bool,
    /// A linked worktree's making: when `git worktree add` wrote its
    /// administrative directory's `commondir` file, which no other command
    /// writes (a worktree removed and added again at the path the start saw
    /// it at, its reflog then emptied, is told by it: test/cases/653).
    /// `None` for a branch, or where the file cannot be read.
    pub written: Option<DateTime<Utc>>,
}

/// When `git worktree add` (or libgit2's) made the linked worktree `name`:
/// the modification time of its `commondir` file, written then and by no
/// other command (`lock`, `repair`, `move` leave it), in whole seconds as
/// the start is kept. A stat, never an open.
fn worktree_written(repo: &Repo, name: &str) -> Option<DateTime<Utc>> {
    let file = repo.common_dir().join("worktrees").join(name).join("commondir");
    let modified = std::fs::symlink_metadata(file).ok()?.modified().ok()?;
    let secs = modified.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    DateTime::from_timestamp(i64::try_from(secs).ok()?, 0)
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
    /// The policy's `[forge] provider`.
    pub provider: Option<Provider>,
    /// With no provider set: every remote is a directory on this machine,
    /// now and at the task's start, so the default forge holds no pull
    /// request of this repository (read only then).
    pub remotes_on_this_machine: bool,
}

/// What the rest of `check` read of the refs, which the closing readings
/// take as read (one read of every ref, not two).
#[derive(Debug, Clone, Copy)]
pub struct RefsRead<'a> {
    /// The local branches.
    pub branches: &'a Reading<Vec<refs::Branch>>,
    /// The symbolic refs among them, with their files' change times
    /// ([`majordomus_readings::refs::local::Tips::symbolic`]).
    pub symbolic: &'a [(String, i64)],
    /// Which remote-tracking refs are evidence of the remotes.
    pub evidence: &'a Reading<refs::RemoteEvidence>,
    /// The trunk, where one was found.
    pub trunk: Option<&'a refs::Trunk>,
    /// HEAD's commit.
    pub head: Option<&'a str>,
    /// What a fetch brought onto HEAD since the start ([`refs::arrived`]).
    pub arrival: &'a Reading<Option<refs::Arrival>>,
    /// The commits made around HEAD, read once for the check
    /// ([`refs::attribution::made_around_head`]).
    pub around: &'a refs::attribution::Around,
}

/// The closing readings.
pub fn measure(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: &TaskState,
    refs_read: RefsRead<'_>,
) -> ClosingReadings {
    let RefsRead { branches, symbolic, evidence, trunk, head, arrival, around } = refs_read;
    ClosingReadings {
        debt: match (task.record(), arrival) {
            (Some(record), Ok(arrival)) => debt(repo, record, head)
                .and_then(|d| with_arrived(repo, d, arrival.as_ref()))
                .and_then(|d| with_landed(repo, record, head, trunk, around, d)),
            (Some(_), Err(e)) => Err(e.clone()),
            (None, _) => Err(Unread::no_task()),
        },
        accumulated: accumulated(repo, branches, symbolic, evidence.as_ref().ok(), trunk, task.record()),
        backlog: backlog(repo, paths, policy, task.record()),
        orphans: crate::orphans::orphans(repo),
    }
}

fn debt(repo: &Repo, record: &TaskRecord, head: Option<&str>) -> Reading<Debt> {
    let start_commit = record.head.as_deref();
    // A record whose start commit is not here does not say where the task
    // started, whatever snapshot it holds: checked before anything is read.
    if let Some(commit) = start_commit {
        if !refs::has_commit(repo, commit) {
            return Err(Unread::start_commit_missing(commit));
        }
    }
    let found = baselines::read_worktree(repo)?;
    let now = found.baselines;
    let head_only = match head {
        Some(h) => held_by_head(repo, h, start_commit, &now, &found.read_from)?,
        None => Vec::new(),
    };
    let snapshot = &record.snapshot;
    let (start, start_from) = match (&snapshot.baseline_bytes, &snapshot.baselines, start_commit) {
        (Some(kept), _, _) => {
            let start = kept.iter().map(|(p, e)| (p.clone(), e.iter().map(|b| b.0.clone()).collect()));
            (start.collect(), StartFrom::Snapshot)
        }
        (None, Some(text), _) => (baselines::from_text(text), StartFrom::SnapshotAsText),
        (None, None, Some(commit)) => {
            (baselines::read_commit(repo, commit)?.baselines, StartFrom::Commit(commit.to_string()))
        }
        (None, None, None) => (Baselines::new(), StartFrom::Unborn),
    };
    let start = match (&start_from, start_commit) {
        (StartFrom::Snapshot | StartFrom::SnapshotAsText, Some(commit)) => {
            with_start_commit(repo, record, commit, start)?
        }
        _ => start,
    };
    let (start, committed) = match (&start_from, start_commit, head) {
        (StartFrom::Snapshot | StartFrom::SnapshotAsText, Some(from), Some(to)) if from != to => {
            committed_since(repo, record, from, to, start, &now, &found.links)?
        }
        _ => (start, Vec::new()),
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
                    moved.push(Moved { from: r.from, to: r.to, by: GIT_RENAMES, left_pattern: false });
                }
            }
        }
        for (from, to) in baselines::pair_by_entries(&gone, &appeared) {
            gone.remove(&from);
            appeared.remove(&to);
            moved.push(Moved { from, to, by: SHARED_ENTRIES, left_pattern: false });
        }
        let (pair, left) = pair_leftovers(&gone, &appeared);
        moved.extend(pair);
        undecided = left;
    }
    Ok(Debt {
        start,
        start_from,
        now,
        links: found.links,
        moved,
        followed: Vec::new(),
        undecided,
        committed,
        arrived: Vec::new(),
        landed: Vec::new(),
        head_only,
    })
}

/// What HEAD's commit holds at a baseline is held now as much as what the
/// working tree's file holds: a clean filter given to one `git add` (`git
/// -c filter.x.clean=... add`) stores a blob holding entries the file does
/// not, and the index keeps the file's stat data, so `git status` is clean
/// and the commit, pushed, carries debt the working tree never showed
/// (test/cases/461). So each baseline the working tree holds is looked up
/// in HEAD's tree at the path it was read from, and where HEAD's blob id is
/// neither the id of the content read nor the start commit's blob there
/// (nothing more is done where it is either: the common case costs a tree
/// lookup per baseline), the copies of entries HEAD's blob holds past those
/// the file holds, and past those the start commit held there (an entry
/// taken out uncommitted before the start stays the start's), are
/// returned by path: the
/// judge reads them as the baseline's entries now, beside the file's. An
/// entry the start held is still no entry added; an uncommitted removal of
/// one the task committed leaves HEAD holding it until the removal is
/// committed. Kept apart from `now`, so that what a baseline moved or gave
/// to another is told from the working tree alone.
fn held_by_head(
    repo: &Repo,
    head: &str,
    start_commit: Option<&str>,
    now: &Baselines,
    read_from: &std::collections::BTreeMap<String, (String, git2::Oid)>,
) -> Reading<Vec<(String, Entry)>> {
    if start_commit == Some(head) {
        return Ok(Vec::new());
    }
    let tree_of = |id: &str, what: &str| {
        git2::Oid::from_str(id)
            .and_then(|oid| repo.git.find_commit(oid))
            .and_then(|c| c.tree())
            .map_err(|e| Unread::git(&format!("the tree of {what} {id}"), &e))
    };
    let tree = tree_of(head, "HEAD's commit")?;
    let then = start_commit.map(|c| tree_of(c, "the start commit")).transpose()?;
    // A blob at `real` in `tree`, not a link (a link's blob is its target's
    // name, no list of entries).
    let blob_at = |tree: &git2::Tree<'_>, real: &str| {
        tree.get_path(std::path::Path::new(real))
            .ok()
            .filter(|e| e.kind() == Some(git2::ObjectType::Blob) && e.filemode() != 0o120000)
            .map(|e| e.id())
    };
    let entries_of = |id: git2::Oid, real: &str| {
        repo.git.find_blob(id).map(|b| baselines::entries(b.content())).map_err(|e| Unread::git(real, &e))
    };
    let mut out = Vec::new();
    for (path, (real, id)) in read_from {
        let Some(in_head) = blob_at(&tree, real) else { continue };
        let at_start = then.as_ref().and_then(|t| blob_at(t, real));
        if in_head == *id || Some(in_head) == at_start {
            continue;
        }
        let Some(held) = now.get(path) else { continue };
        let in_head = entries_of(in_head, real)?;
        let at_start = at_start.map(|id| entries_of(id, real)).transpose()?.unwrap_or_default();
        // Each copy past the more of the file's copies and the start commit's.
        let (file, start) = (baselines::copies(held), baselines::copies(&at_start));
        let mut seen = baselines::Copies::default();
        let more = in_head.iter().filter(|e| {
            let n = seen.entry(e.as_slice()).or_default();
            *n += 1;
            let held = |c: &baselines::Copies<'_>| c.get(e.as_slice()).copied().unwrap_or(0);
            *n > held(&file).max(held(&start))
        });
        out.extend(more.into_iter().map(|e| (path.clone(), e.clone())));
    }
    Ok(out)
}

/// The task's debt is the task's wherever it went: an entry a commit this
/// repository made since the start ([`made_around_head`]: HEAD's reflog;
/// where HEAD does not reach the trunk's tip, the loose commits written
/// here since the start under its own address, a linked worktree made for
/// the work and removed, and, where HEAD's reflog was rewritten, every own
/// commit on the trunk: test/cases/592) added to a baseline, where HEAD
/// does not reach that commit and the trunk's tip holds the entry, in any
/// baseline, is debt the task landed around HEAD (pushed to the trunk from
/// a branch since deleted, HEAD left at the start; or squash-merged),
/// counted as added unless the start held it or the working tree holds it
/// now (then the comparison above counts it). Costs a tree lookup per
/// commit made since the start: only one that changed `.ai/repo` and that
/// HEAD does not reach is read further.
///
/// [`made_around_head`]: refs::attribution::made_around_head
fn with_landed(
    repo: &Repo,
    record: &TaskRecord,
    head: Option<&str>,
    trunk: Option<&refs::Trunk>,
    around: &refs::attribution::Around,
    mut debt: Debt,
) -> Reading<Debt> {
    let Some(trunk) = trunk else { return Ok(debt) };
    let head = head.and_then(|h| git2::Oid::from_str(h).ok());
    let tip = git2::Oid::from_str(&trunk.commit).map_err(|e| Unread::git(&trunk.commit, &e))?;
    let repo_dir = |c: &git2::Commit<'_>| {
        c.tree().ok().and_then(|t| t.get_path(std::path::Path::new(REPO_DIR)).ok()).map(|e| e.id())
    };
    // Only a commit whose `.ai/repo` differs from every parent's is walked
    // to from HEAD: a merge's change is its own where it differs from each
    // side (an entry written into its resolution, test/cases/616), not what
    // it took from one.
    let changed_baselines = |c: &git2::Commit<'_>| {
        c.parent_count() >= 1 && c.parents().all(|p| repo_dir(c) != repo_dir(&p)) && c.parent(0).is_ok()
    };
    let at_start = refs::attribution::trunk_at_start(record, &trunk.refname);
    let candidates: Vec<(String, Vec<String>)> =
        refs::attribution::made_around_head(repo, record, head, tip, at_start, around, changed_baselines)?
            .iter()
            .map(|c| (c.id().to_string(), c.parent_ids().map(|p| p.to_string()).collect()))
            .collect();
    if candidates.is_empty() {
        return Ok(debt);
    }
    // Counted as copies over all baselines: a commit that added a second
    // copy of an entry added one, as the comparison above counts it.
    let on_trunk = baselines::read_commit(repo, &trunk.commit)?.baselines;
    let on_trunk = baselines::copies(on_trunk.values().flatten());
    let (at_start, at_now) =
        (baselines::copies(debt.start.values().flatten()), baselines::copies(debt.now.values().flatten()));
    let mut landed: Vec<LandedEntry> = Vec::new();
    for (commit, parents) in candidates {
        // A merge added an entry only past the copies each side held.
        let mut sides = Vec::with_capacity(parents.len());
        for parent in &parents {
            sides.push(baselines::read_commit(repo, parent)?.baselines);
        }
        let sides: Vec<baselines::Copies<'_>> = sides.iter().map(|b| baselines::copies(b.values().flatten())).collect();
        let after = baselines::read_commit(repo, &commit)?.baselines;
        let made = baselines::copies(after.values().flatten());
        for (path, entries) in &after {
            for entry in entries {
                let n = |c: &baselines::Copies<'_>| c.get(entry.as_slice()).copied().unwrap_or(0);
                let before = sides.iter().map(n).max().unwrap_or(0);
                // Held at the start or now: the comparison above counts it.
                let held = n(&at_start).max(n(&at_now));
                let new = n(&made) > before && n(&on_trunk) > held;
                if new && !landed.iter().any(|l| l.entry == *entry) {
                    landed.push(LandedEntry { path: path.clone(), entry: entry.clone(), commit: commit.clone() });
                }
            }
        }
    }
    debt.landed = landed;
    Ok(debt)
}

/// What a fetch brought is not the task's: an entry a baseline holds at
/// the newest of the commits a fetch brought onto HEAD since the start
/// (`Arrival::tips`: only those that hold none of the task's own work) is
/// read as one the start held, at the same path, so a colleague's entry
/// pulled is not the task's debt. Read only where something arrived.
fn with_arrived(repo: &Repo, mut debt: Debt, arrival: Option<&refs::Arrival>) -> Reading<Debt> {
    let Some(arrival) = arrival else { return Ok(debt) };
    let mut arrived = BTreeSet::new();
    for tip in &arrival.tips {
        for (path, entries) in baselines::read_commit(repo, tip)?.baselines {
            let held = debt.start.entry(path).or_default();
            // Each copy past those the start held: a second copy pulled is
            // a colleague's too.
            let more: Vec<Entry> = baselines::more_copies(&entries, held.iter()).into_iter().cloned().collect();
            for entry in more {
                held.push(entry.clone());
                arrived.insert(entry);
            }
        }
    }
    debt.arrived = arrived.into_iter().collect();
    Ok(debt)
}

/// What the start held of a baseline is what its working tree held or what
/// its commit held there, whichever held more: a baseline deleted, or an
/// entry taken out, uncommitted before the start is still the start's
/// commit's, so `git checkout -- FILE` puts back the start's debt and what
/// the task appends after it is added (test/cases/538), where the snapshot
/// alone read the restored file as new since the start and not counted.
/// Each copy the start commit holds at a baseline path the start found
/// dirty past the snapshot's copies there is added to the start's entries.
/// Read only where a baseline path was dirty at the start: a tree lookup
/// and a blob read for each.
fn with_start_commit(repo: &Repo, record: &TaskRecord, commit: &str, mut start: Baselines) -> Reading<Baselines> {
    let dirty: Vec<String> = record
        .snapshot
        .dirty
        .iter()
        .flatten()
        .map(|d| d.path.to_string())
        .filter(|p| p.starts_with(&format!("{REPO_DIR}/")) && p.ends_with(baselines::SUFFIX))
        .collect();
    if dirty.is_empty() {
        return Ok(start);
    }
    let tree = git2::Oid::from_str(commit)
        .and_then(|oid| repo.git.find_commit(oid))
        .and_then(|c| c.tree())
        .map_err(|e| Unread::git(&format!("the tree of the start commit {commit}"), &e))?;
    for path in dirty {
        let Ok(entry) = tree.get_path(std::path::Path::new(&path)) else { continue };
        // A link's blob is its target's name, no list of entries.
        if entry.kind() != Some(git2::ObjectType::Blob) || entry.filemode() == 0o120000 {
            continue;
        }
        let blob = repo.git.find_blob(entry.id()).map_err(|e| Unread::git(&path, &e))?;
        let in_commit = baselines::entries(blob.content());
        let held = start.entry(path).or_default();
        let more: Vec<Entry> = baselines::more_copies(&in_commit, held.iter()).into_iter().cloned().collect();
        held.extend(more);
    }
    Ok(start)
}

/// What the task put into history is the task's, whatever the working tree
/// held at the start: an entry the start snapshot held uncommitted (someone's
/// edit to a baseline, there at the start) that the task then committed
/// (`git add -A`) is taken out of the start's entries, so it counts as
/// added. One left uncommitted stays inherited. Read only where a baseline
/// (or what one is read through) was dirty or untracked at the start and
/// HEAD moved since: the blobs at those paths in the start commit and in
/// HEAD, compared as entries over all of them (an entry moved from one
/// baseline to another in a commit is no committed addition; one committed
/// with the baseline's move is).
fn committed_since(
    repo: &Repo,
    record: &TaskRecord,
    from: &str,
    to: &str,
    mut start: Baselines,
    now: &Baselines,
    links: &[Link],
) -> Reading<(Baselines, Vec<Entry>)> {
    let uncommitted: BTreeSet<String> = record
        .snapshot
        .dirty
        .iter()
        .flatten()
        .map(|d| d.path.to_string())
        .chain(record.snapshot.untracked.iter().flatten().map(|u| u.path.to_string()))
        .collect();
    let paths: BTreeSet<String> =
        start.keys().chain(now.keys()).chain(links.iter().map(|l| &l.target)).cloned().collect();
    if !paths.iter().any(|p| uncommitted.contains(p)) {
        return Ok((start, Vec::new()));
    }
    let tree_of = |id: &str| {
        git2::Oid::from_str(id)
            .and_then(|oid| repo.git.find_commit(oid))
            .and_then(|c| c.tree())
            .map_err(|e| Unread::git(&format!("the tree of {id}"), &e))
    };
    let (then, head) = (tree_of(from)?, tree_of(to)?);
    let entries_in = |tree: &git2::Tree<'_>| -> Reading<Vec<Entry>> {
        let mut out = Vec::new();
        for path in &paths {
            let Ok(entry) = tree.get_path(std::path::Path::new(path)) else { continue };
            // A link's blob is its target's name, no list of entries.
            if entry.kind() != Some(git2::ObjectType::Blob) || entry.filemode() == 0o120000 {
                continue;
            }
            let blob = repo.git.find_blob(entry.id()).map_err(|e| Unread::git(path, &e))?;
            out.extend(baselines::entries(blob.content()));
        }
        Ok(out)
    };
    // As copies: each copy HEAD holds past the start commit's takes one
    // copy out of the start's entries.
    let (before, in_head) = (entries_in(&then)?, entries_in(&head)?);
    let mut added = baselines::copies(baselines::more_copies(&in_head, before.iter()));
    // A baseline untracked at the start that the task committed at its path
    // is still the baseline the start held: the copies it held then are
    // those HEAD gained with it first, and stay the start's (debt already
    // there, as in a baseline the task wrote), so it is compared with what
    // it held and what the task appended to it is added (test/cases/536).
    // Dropped from the start's baselines, it was read as new since the
    // start and not counted, whatever it had gained.
    let untracked: BTreeSet<String> = record.snapshot.untracked.iter().flatten().map(|u| u.path.to_string()).collect();
    let committed_whole = |p: &str| {
        let path = std::path::Path::new(p);
        untracked.contains(p) && then.get_path(path).is_err() && head.get_path(path).is_ok()
    };
    for e in start.iter().filter(|(p, _)| committed_whole(p)).flat_map(|(_, e)| e) {
        if let Some(n) = added.get_mut(e.as_slice()) {
            *n = n.saturating_sub(1);
        }
    }
    let mut committed = BTreeSet::new();
    for (_, entries) in start.iter_mut().filter(|(p, _)| !committed_whole(p)) {
        entries.retain(|e| match added.get_mut(e.as_slice()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                committed.insert(e.clone());
                false
            }
            _ => true,
        });
    }
    Ok((start, committed.into_iter().collect()))
}

/// How git's rename detection is named as the way a move was found.
const GIT_RENAMES: &str = "git rename detection";

/// Follows a baseline gone from its path since the start (deleted, or
/// moved) out of the naming pattern, among the paths the change since the
/// start added or modified (`changes`): where no baseline took its place
/// (nothing under `.ai/repo` was paired with it), the one git's rename
/// detection pairs it with, wherever it is and whatever its name
/// (`lint-allowlist.txt`, `config/lint-allow.txt`), is read as the baseline
/// it was, so renaming a baseline out of the pattern launders no entry;
/// else the one its entries went to ([`follow_by_entries`]). And, paired or
/// not, into every other such file that holds any of its entries: a
/// baseline split over several files, or kept as a backup while another
/// file holds it and more, is read wherever it went (test/cases/526).
/// Taken once the change set is read; it costs nothing while every baseline
/// is at its path.
pub fn follow(repo: &Repo, record: Option<&TaskRecord>, mut debt: Debt, changes: &Reading<ChangeSet>) -> Reading<Debt> {
    let gone: Baselines = debt
        .start
        .iter()
        .filter(|(p, e)| !e.is_empty() && !debt.now.contains_key(*p))
        .map(|(p, e)| (p.clone(), e.clone()))
        .collect();
    let Some(commit) = record.and_then(|r| r.head.as_deref()) else { return Ok(debt) };
    if gone.is_empty() {
        return Ok(debt);
    }
    let changes = changes.as_ref().map_err(Clone::clone)?;
    // Paths as RepoPath shows them: the baselines are keyed so. Added or
    // modified alike: git pairs a deletion only with an added file, and the
    // entries are followed into either.
    let changed: BTreeSet<String> = changes
        .changed
        .iter()
        .map(ToString::to_string)
        .filter(|p| !debt.now.contains_key(p) && !debt.start.contains_key(p) && !is_own_state(p))
        .collect();
    if changed.is_empty() {
        return Ok(debt);
    }
    let moved_from: BTreeSet<&str> = debt.moved.iter().map(|m| m.from.as_str()).collect();
    let unpaired: BTreeSet<String> = gone.keys().filter(|p| !moved_from.contains(p.as_str())).cloned().collect();
    if !unpaired.is_empty() {
        let among: Vec<String> = unpaired.iter().cloned().chain(changed.iter().cloned()).collect();
        for r in renames::commit_to_worktree_among(repo, commit, &among)? {
            if !unpaired.contains(&r.from) || !changed.contains(&r.to) || debt.now.contains_key(&r.to) {
                continue;
            }
            if let Some(entries) = baselines::read_file(repo, &r.to)? {
                debt.now.insert(r.to.clone(), entries);
                debt.moved.push(Moved { from: r.from, to: r.to, by: GIT_RENAMES, left_pattern: true });
            }
        }
    }
    follow_by_entries(repo, commit, &mut debt, &gone, &changed)?;
    Ok(debt)
}

/// The largest file read whole as a baseline that left the pattern without
/// git's rename detection pairing it; a larger one is read a piece at a
/// time ([`follow_read::entries`]), keeping only its entries.
const MAX_FOLLOWED_BYTES: u64 = 16 << 20;

/// How a file followed for holding entries of a baseline gone since the
/// start, and compared with the copies taken out, is named.
const HOLDS_ENTRIES: &str = "entries of it held there";

/// Follows, by its entries, a baseline gone from its path since the start
/// (`gone`) into the paths the change since the start added or modified
/// (`changed`, none a baseline): a file new since the start (not in the
/// start commit) is read whole as it is; a file the start commit held by
/// what it gained since (its entries past the copies the start commit's
/// blob held there), so a baseline folded into the project's other
/// allowlist (`cat baseline >> config/lint-allow.txt; git rm baseline`) is
/// followed there and what it gained is the baseline's, while the lines it
/// held at the start stay its own (test/cases/501). Of those that hold any
/// of a gone baseline's entries:
/// - one holding at least half of the entries of a baseline git's rename
///   detection did not pair (it pairs a moved file only while half of it
///   is still what it was, and never a deletion with a file the start
///   held) is that baseline, compared with it;
/// - every other is a baseline new since the start fed by the copies taken
///   out of the start's ([`Debt::followed`]): split over several files, or
///   kept unchanged as a backup while another holds it and an entry more,
///   no copy is held twice and no entry added unread (test/cases/526).
///
/// A file that holds none of their entries is none of them, and neither is
/// a document (`.md`, `.rst`, `.adoc`, `.org`: [`test_path::is_document`]):
/// the task's docs saying where the list now lives, quoting an entry as an
/// example, are prose, not a baseline; one git's rename detection paired
/// with a baseline gone (renamed to README.md) is followed all the same
/// ([`follow`]), and an entry split into a document is not (test/cases/530).
/// Only while a baseline is gone from its path; a modified file's start
/// blob is read only where the file now holds one of their entries.
fn follow_by_entries(
    repo: &Repo,
    commit: &str,
    debt: &mut Debt,
    gone: &Baselines,
    changed: &BTreeSet<String>,
) -> Reading<()> {
    let moved_from: BTreeSet<&str> = debt.moved.iter().map(|m| m.from.as_str()).collect();
    let left: Baselines =
        gone.iter().filter(|(p, _)| !moved_from.contains(p.as_str())).map(|(p, e)| (p.clone(), e.clone())).collect();
    let theirs: HashSet<&[u8]> = gone.values().flatten().map(Vec::as_slice).collect();
    let holds_theirs = |entries: &[Entry]| entries.iter().any(|e| theirs.contains(e.as_slice()));
    let tree = git2::Oid::from_str(commit)
        .and_then(|oid| repo.git.find_commit(oid))
        .and_then(|c| c.tree())
        .map_err(|e| Unread::git(&format!("the tree of the start commit {commit}"), &e))?;
    let mut candidates = Baselines::new();
    let mut gained = BTreeSet::new();
    // A document is not followed by its entries: it quotes them, prose
    // around them, and no tool reads its list from one (test/cases/530).
    let followed = |p: &&String| !debt.now.contains_key(*p) && !test_path::is_document(p);
    for path in changed.iter().filter(followed) {
        let Some(entries) = follow_read::entries(repo, path, MAX_FOLLOWED_BYTES, gone)? else { continue };
        // What it holds now bounds what it gained, so the start's blob is
        // read only where it holds one of theirs.
        if !holds_theirs(&entries) {
            continue;
        }
        let Ok(at_start) = tree.get_path(std::path::Path::new(path)) else {
            candidates.insert(path.clone(), entries);
            continue;
        };
        let then = follow_read::blob_entries(repo, &at_start, path)?;
        let more: Vec<Entry> = baselines::more_copies(&entries, then.iter()).into_iter().cloned().collect();
        if holds_theirs(&more) {
            candidates.insert(path.clone(), more);
            gained.insert(path.clone());
        }
    }
    for (from, to) in baselines::pair_by_entries(&left, &candidates) {
        // At least half of what it held: a file that shares a line or two
        // with a baseline paid off is not taken for it.
        if !holds_half(&left[&from], &candidates[&to]) {
            continue;
        }
        let by = if gained.contains(&to) { GAINED_ENTRIES } else { SHARED_ENTRIES };
        if let Some(entries) = candidates.remove(&to) {
            debt.now.insert(to.clone(), entries);
            debt.moved.push(Moved { from, to, by, left_pattern: true });
        }
    }
    for (to, entries) in candidates {
        let held: HashSet<&[u8]> = entries.iter().map(Vec::as_slice).collect();
        for from in gone.iter().filter(|(_, e)| e.iter().any(|e| held.contains(e.as_slice()))).map(|(p, _)| p) {
            debt.followed.push(Moved { from: from.clone(), to: to.clone(), by: HOLDS_ENTRIES, left_pattern: true });
        }
        debt.now.insert(to, entries);
    }
    Ok(())
}

/// Whether `now` holds at least half of the distinct entries of `former`.
fn holds_half(former: &[Entry], now: &[Entry]) -> bool {
    let former: BTreeSet<&Entry> = former.iter().collect();
    let shared = now.iter().filter(|e| former.contains(e)).collect::<BTreeSet<_>>().len();
    !former.is_empty() && shared * 2 >= former.len()
}

/// How a move into a file the start held, paired by the entries it gained
/// since, is named.
const GAINED_ENTRIES: &str = "the entries it gained since the start";

/// How a move paired by the entries both sides hold is named.
const SHARED_ENTRIES: &str = "shared entries";

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
        ([from], [to]) => (
            Some(Moved { from: (*from).clone(), to: (*to).clone(), by: BY_ELIMINATION, left_pattern: false }),
            Vec::new(),
        ),
        _ => (None, appeared.into_iter().cloned().collect()),
    }
}

/// What the reflog of a branch still at its start commit is taken for: not
/// read (see [`accumulated`]).
pub const AT_START_COMMIT: &str = "its reflog is not read: it is at the commit the start snapshot holds for it";

/// Every local branch and linked worktree, each dated by its reflog's first
/// line where the date can change the answer. A branch the start snapshot
/// holds at the commit it is at now is the start's branch whatever its
/// reflog says (made again at the same commit, it holds what it held): it
/// is counted, not listed, and its reflog is not read (on a repository of
/// thousands of branches, a file read and a name copied per branch on every
/// `check`: bench/README.md). The task's own branch is listed all the same:
/// it is the task's work wherever it stands.
fn accumulated(
    repo: &Repo,
    branches_now: &Reading<Vec<refs::Branch>>,
    symbolic: &[(String, i64)],
    evidence: Option<&refs::RemoteEvidence>,
    trunk: Option<&refs::Trunk>,
    record: Option<&TaskRecord>,
) -> Reading<Accumulated> {
    let mut branches = Vec::new();
    let mut unchanged_branches = 0;
    let own = record.and_then(|r| r.branch.as_deref());
    for b in branches_now.as_ref().map_err(Clone::clone)? {
        let dating = if b.at_start {
            if own != Some(b.name.as_str()) {
                unchanged_branches += 1;
                continue;
            }
            Dating::Undated(AT_START_COMMIT)
        } else {
            reflog::date(&reflog::branch_log(repo, &b.name))?
        };
        branches.push(Made {
            name: b.name.clone(),
            at: b.commit.clone(),
            dating,
            missing: false,
            detached: false,
            written: None,
        });
    }
    let mut trees = Vec::new();
    for (name, path) in worktrees::read(repo)? {
        let dating = reflog::date(&reflog::worktree_log(repo, &name))?;
        let missing = !std::path::Path::new(&path).exists();
        // A symbolic HEAD (`ref: refs/heads/...`) keeps its commits on a
        // branch; anything else, unread included, is taken as detached.
        let head = majordomus_readings::file::read(&repo.common_dir().join("worktrees").join(&name).join("HEAD"));
        let detached = !head.is_ok_and(|h| h.starts_with(b"ref:"));
        let written = worktree_written(repo, &name);
        trees.push(Made { name, at: path, dating, missing, detached, written });
    }
    let remote_branches = match (evidence, record.and_then(|r| r.snapshot.remote_refs.as_ref())) {
        (Some(evidence), Some(at_start)) => {
            // A peer's: the upstream of a branch another worktree has
            // checked out (a worktree that existed at the start pushes its
            // own work).
            let peers = checked_out_elsewhere(repo, &trees);
            let peers_upstreams: BTreeSet<&str> = branches_now
                .as_ref()
                .map_err(Clone::clone)?
                .iter()
                .filter(|b| peers.contains(&b.name))
                .filter_map(|b| Some(b.upstream.as_ref()?.refname.as_str()))
                .collect();
            let mut pushed = pushed_since(repo, evidence, at_start, record)?;
            // The trunk itself (a new project's first push makes it).
            pushed.retain(|p| Some(p.refname.as_str()) != trunk.map(|t| t.refname.as_str()));
            pushed.retain(|p| !peers_upstreams.contains(p.refname.as_str()));
            for p in &mut pushed {
                p.landed =
                    trunk.is_some_and(|t| reaches(repo, &t.commit, &p.commit) || holds(repo, &t.commit, &p.commit));
            }
            pushed
        }
        // No snapshot of the remote-tracking refs (no task, or a record
        // older than it): nothing says which are new.
        _ => Vec::new(),
    };
    Ok(Accumulated {
        branches,
        unchanged_branches,
        worktrees: trees,
        remote_branches,
        aliases: aliases(repo, symbolic),
    })
}

/// The local branches checked out in another worktree than this one: the
/// main worktree's (where this is a linked one) and every other linked
/// worktree's (`trees`, as read for the question).
fn checked_out_elsewhere(repo: &Repo, trees: &[Made]) -> BTreeSet<String> {
    let common = repo.common_dir();
    let ours = repo.git_dir().canonicalize().ok();
    let mut heads = vec![common.join("HEAD")];
    heads.extend(trees.iter().map(|t| common.join("worktrees").join(&t.name).join("HEAD")));
    heads
        .into_iter()
        .filter(|h| h.parent().and_then(|d| d.canonicalize().ok()) != ours)
        .filter_map(|h| majordomus_readings::file::read(&h).ok())
        .filter_map(|b| {
            let text = String::from_utf8(b).ok()?;
            Some(text.trim().strip_prefix("ref: refs/heads/")?.to_string())
        })
        .collect()
}

/// Whether `from` is `commit` or descends from it.
fn reaches(repo: &Repo, from: &str, commit: &str) -> bool {
    match (git2::Oid::from_str(from), git2::Oid::from_str(commit)) {
        (Ok(f), Ok(c)) => f == c || repo.git.graph_descendant_of(f, c).unwrap_or(false),
        _ => false,
    }
}

/// Whether the trunk at `trunk` holds every path `commit` changed since
/// their merge base with its content (a squash or rebase merge: its work
/// landed though no ancestry shows it, test/cases/466), having changed
/// something.
fn holds(repo: &Repo, trunk: &str, commit: &str) -> bool {
    matches!(refs::integration(repo, commit, trunk), Ok(refs::Integration::Holds { paths, .. }) if paths > 0)
}

/// The remote-tracking refs the start did not hold whose reflog begins
/// with a push from here (`update by push`), or that stand at a commit this
/// worktree made since the start (`made`: its ref deleted here and fetched
/// back, or the branch pushed by URL and fetched, leave its reflog
/// beginning with a fetch): branches this repository made on a remote
/// since the start (test/cases/400, 408). Counted or not: a ref of a
/// remote added since the start (`git remote add backup URL; git push
/// backup HEAD:wip`) is no evidence of what that remote holds, but its
/// push line says a branch was made there (test/cases/453); written by
/// hand to look like one, it can only make this ask for more. Only refs new
/// since the start are read, so this costs nothing where none is.
fn pushed_since(
    repo: &Repo,
    evidence: &refs::RemoteEvidence,
    at_start: &Names,
    record: Option<&TaskRecord>,
) -> Reading<Vec<Pushed>> {
    // A remote on this machine that cannot be read holds branches unknown,
    // not none: a push from here may have made one there (test/cases/612).
    if let (Some(_), Some((_, why))) = (record, evidence.unreadable.iter().next()) {
        return Err(Unread::repository(format!(
            "which branches a push from here made on the remote is unknown: {why}"
        )));
    }
    let mut out = Vec::new();
    // The commits this worktree made since the start, read only when a ref
    // new since the start does not begin with a push.
    let mut made: Option<std::collections::HashSet<git2::Oid>> = None;
    let counted =
        evidence.refs.iter().filter(|t| t.at_start.is_none()).map(|t| (&t.refname, &t.commit, Some(t.remote.as_str())));
    let uncounted = evidence.uncounted.iter().map(|(refname, commit)| (refname, commit, None));
    let started = record.and_then(|r| r.started_at().ok()).map_or(i64::MIN, |t| t.timestamp());
    for (refname, commit, remote) in counted.chain(uncounted) {
        let is_counted = remote.is_some();
        if at_start.get(refname).is_some() || out.iter().any(|p: &Pushed| &p.refname == refname) {
            continue;
        }
        let remote = match remote {
            Some(r) => r.to_string(),
            None => match refs::remote_under(refname, &evidence.remotes_now) {
                Some(r) => r.to_string(),
                None => continue,
            },
        };
        let Some(branch) = refname.strip_prefix(&format!("refs/remotes/{remote}/")).map(str::to_string) else {
            continue;
        };
        let lines = reflog::since(&reflog::log_of(repo.common_dir(), refname), 0)?;
        let Some(first) = lines.last() else { continue };
        // A ref that is no evidence says only what its own push line says,
        // and only of a push since the start (a remote renamed since keeps
        // its refs' older lines): a branch fetched from a remote added
        // since (a fork's `main`) is no branch of the task's, wherever it
        // stands.
        if !is_counted && (first.message != "update by push" || first.time < started || renamed_from(&lines, at_start))
        {
            continue;
        }
        if first.message != "update by push" {
            let made = match (&mut made, record) {
                (Some(made), _) => made,
                (slot, Some(r)) => slot.insert(refs::attribution::made_by_head_since(repo, r)?),
                (_, None) => continue,
            };
            if !git2::Oid::from_str(commit).is_ok_and(|c| made.contains(&c)) {
                continue;
            }
        }
        let Some(made_at) = DateTime::from_timestamp(first.time, 0) else { continue };
        let mirror = evidence.mirrors.contains(&remote);
        out.push(Pushed {
            refname: refname.clone(),
            remote,
            branch,
            commit: commit.clone(),
            made_at,
            landed: false,
            mirror,
        });
    }
    // A branch of a remote on this machine that no remote-tracking ref
    // here stands for (a `--single-branch` clone's refspecs map it to none;
    // a push by URL wrote none; `git branch -dr` deleted it) whose tip is a
    // commit this worktree made since the start: one a push from here made
    // (test/cases/455, 460); a colleague's, at a commit of theirs, is not.
    // Dated by that commit.
    // A push mirror's branch is the mirror of a branch here (`git push`
    // deletes it there once it is deleted here): one a branch here stands
    // for is that branch's, judged as it is.
    for (remote, branch, commit) in &evidence.beyond_refspecs {
        let refname = format!("refs/remotes/{remote}/{branch}");
        if at_start.get(&refname).is_some() || out.iter().any(|p| p.refname == refname) {
            continue;
        }
        let mirror = evidence.mirrors.contains(remote);
        if mirror && repo.git.find_branch(branch, git2::BranchType::Local).is_ok() {
            continue;
        }
        let made = match (&mut made, record) {
            (Some(made), _) => made,
            (slot, Some(r)) => slot.insert(refs::attribution::made_by_head_since(repo, r)?),
            (_, None) => continue,
        };
        let Ok(id) = git2::Oid::from_str(commit) else { continue };
        if !made.contains(&id) {
            continue;
        }
        let time = repo.git.find_commit(id).map(|c| c.committer().when().seconds()).unwrap_or(0);
        let Some(made_at) = DateTime::from_timestamp(time, 0) else { continue };
        out.push(Pushed {
            refname,
            remote: remote.clone(),
            branch: branch.clone(),
            commit: commit.clone(),
            made_at,
            landed: false,
            mirror,
        });
    }
    Ok(out)
}

/// Whether a ref's reflog says `git remote rename` made it from a ref the
/// start held (`remote: renamed refs/remotes/origin/main to ...`): the
/// start's ref under another name, its push lines older than the task.
fn renamed_from(lines: &[reflog::Line], at_start: &Names) -> bool {
    lines.iter().any(|l| {
        l.message
            .strip_prefix("remote: renamed ")
            .and_then(|rest| rest.split_once(" to "))
            .is_some_and(|(from, _)| at_start.get(from).is_some())
    })
}

fn backlog(repo: &Repo, paths: &StatePaths, policy: &Policy, task: Option<&TaskRecord>) -> Reading<Backlog> {
    let provider = policy.provider();
    // No forge declared: nothing to read.
    let observation = match provider {
        Some(Provider::None) => None,
        _ => observation(repo, paths, provider, task)?,
    };
    // The default forge, where no remote could name a repository on one:
    // the task snapshot's remotes first, the configuration only where all
    // of those were on this machine.
    let remotes_on_this_machine =
        provider.is_none() && task.is_some_and(|t| crate::in_force::remotes_on_this_machine(Some(repo), t));
    Ok(Backlog {
        observation,
        read_at: Utc::now(),
        max_age_minutes: policy.forge.as_ref().and_then(|f| f.max_age_minutes),
        provider,
        remotes_on_this_machine,
    })
}

/// The recorded forge observation (the common git directory's, else the
/// one an older majordomus kept in this worktree), as evidence of the forge:
/// one `trust.rs` cannot believe for `task` is a reading not taken, saying
/// why. `Ok(None)`: the forge was never observed.
pub fn observation(
    repo: &Repo,
    paths: &StatePaths,
    provider: Option<Provider>,
    task: Option<&TaskRecord>,
) -> Reading<Option<Observation>> {
    let Some((obs, _)) =
        Observation::load_shared(repo.common_dir(), &paths.forge()).map_err(|e| Unread::record(error_chain(&e)))?
    else {
        return Ok(None);
    };
    match super::trust::untrusted(&obs, provider, task) {
        Some(why) => Err(Unread::record(why)),
        None => Ok(Some(obs)),
    }
}

mod follow_read;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod debt_tests;
