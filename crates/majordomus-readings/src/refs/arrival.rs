//! What arrived from a remote since the start: the work of others that a
//! fetch brought, which is not the task's.
//!
//! "The change" a task made is read as the difference between its start
//! and now ([`crate::changes`]). A `git pull` of a colleague's pushed
//! commit moves HEAD as the task's own commits do, so that difference
//! holds the colleague's work too: their test would count as the task's
//! regression test, their commit as what the task made, their docs as a
//! path the task changed outside its scope. So the commits a fetch
//! brought are told apart:
//!
//! - a commit *arrived* when a line since the start of the reflog of a
//!   remote-tracking ref that moved since, of a remote that counts
//!   ([`super::evidence`]: one added or re-pointed since does not), is a
//!   fetch or pull of that remote, moving the ref from OLD to NEW, and NEW
//!   reaches the commit while OLD and the start commit do not. A line
//!   moving it by hand (`git update-ref`, a fetch of another place into
//!   it) is no fetch and brings nothing; one after a fetch does not undo
//!   what the fetch brought;
//! - a commit a remote-tracking ref or a local branch held at the start
//!   (the snapshot's) that the start commit does not reach arrived too,
//!   before any line since: an editor's auto-fetch before `start`, then
//!   `git rebase origin/main`, brings a colleague's commit no line since
//!   names (test/cases/485); `git merge --ff-only wip` brings a branch's
//!   work from before the start (test/cases/637). It was made before the
//!   start, so nothing below makes it the task's;
//! - unless this worktree made it: HEAD's reflog since the start names it
//!   made ([`super::attribution::made_by_head_since`]: a commit, merge,
//!   cherry-pick, revert, rebase's pick or am, never a checkout, a reset,
//!   a fast-forward, nor a rebase's start or finish), or a push line
//!   brought it before any fetch line did (pushed, then fetched back
//!   merged on the forge; a push in the same second as the fetch counts
//!   as after it).
//!
//! Of HEAD's commits since the start, those that arrived are others'; the
//! rest are the task's own, but for what they copy: a commit made here
//! under the author (name, address, time) of one that arrived or that a
//! ref held at the start (a `git cherry-pick` of it, a rebase's pick)
//! holds that one's work at every path where it holds what that one
//! changed the path to, and one that holds nothing else is arrived itself
//! (test/cases/486). The paths the task's own commits changed are
//! the task's (a merge's, only where it differs from every parent: what
//! it took from one side is that side's), and so are those of every
//! commit this worktree made since the start that HEAD does not reach (its
//! work on a branch, squash-merged on the forge and fetched back onto
//! HEAD). [`crate::changes`] then counts a committed path only the
//! arrived commits changed as arrived: named, not counted. The working
//! tree is never set aside: a path it holds other than HEAD does is the
//! task's, whatever arrived.
//!
//! Where no fetch line since the start shows in the reflogs of the
//! remote-tracking refs that moved, and every ref held at the start is one
//! the start commit reaches, nothing else is walked: the common case costs
//! those reflogs and one walk from the refs' start values; where the
//! start's refs hold commits of their own (a colleague's branch) but none
//! of them is on HEAD and no commit there has one's author, neither
//! HEAD's reflog nor the objects are read.

use std::collections::{BTreeSet, HashMap, HashSet};

use git2::Oid;
use majordomus_records::task::TaskRecord;
use majordomus_records::RepoPath;

use super::evidence::{self, RemoteEvidence};
use super::LISTED;
use crate::reflog;
use crate::{Reading, Repo, Unread};

/// At most this many commits are walked: those HEAD reaches since the
/// start, and those the fetch and push lines since the start brought.
/// Past it, nothing is set apart (the change reads as it did before).
pub const WALKED: usize = 20_000;

/// What a fetch brought onto HEAD since the start, and what of HEAD is
/// the task's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arrival {
    /// The arrived commits HEAD reaches: at most [`LISTED`], newest first.
    pub commits: Vec<String>,
    pub count: usize,
    /// Of those, each that no other of them reaches and that holds none of
    /// the task's own work (it reaches none of the task's commits, and the
    /// task made none elsewhere that a squash could have taken in): what
    /// the task's own lines are told from, beside the start.
    pub tips: Vec<String>,
    /// HEAD's commits since the start that did not arrive: the task's
    /// own, at most [`LISTED`], newest first.
    pub own: Vec<String>,
    pub own_count: usize,
    /// Commits this worktree made since the start (or pushed from here)
    /// that HEAD does not reach and that no commit of its own there
    /// rewrote (rebased, amended: the same author and author date), whose
    /// content HEAD holds at a path they changed: work a fetch brought
    /// back (merged or squash-merged on the forge).
    pub made_elsewhere: usize,
    /// Every path the task's own commits changed.
    pub touched: BTreeSet<RepoPath>,
    /// Whether HEAD's tree differs from the start commit's, and from each
    /// of `tips`, at a path the task's own commits changed: HEAD holds some
    /// of the task's work.
    pub holds_own: bool,
}

impl Arrival {
    /// Whether the task's own commits changed `path`.
    pub fn touched(&self, path: &RepoPath) -> bool {
        self.touched.contains(path)
    }
}

/// How a reflog line moved a remote-tracking ref. A fetch sorts before a
/// push of the same second: a commit both brought then arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Fetch,
    Push,
}

/// The arrived commits on HEAD and the task's own, or `None` when nothing
/// a fetch brought since the start is on HEAD (or it cannot be told: a
/// start time that is not one, a grafts file, more than [`WALKED`]
/// commits to read).
pub fn arrived(
    repo: &Repo,
    record: &TaskRecord,
    head: Option<&str>,
    evidence: &RemoteEvidence,
) -> Reading<Option<Arrival>> {
    let Some(head) = head else { return Ok(None) };
    let start = record.head.as_deref();
    if start == Some(head) || evidence.grafts.is_some() {
        return Ok(None);
    }
    let Ok(started) = record.started_at() else { return Ok(None) };
    let mut lines: Vec<(i64, Kind, String, String)> = Vec::new();
    for (refname, remote) in &evidence.moved {
        let url = evidence::fetch_url(repo, remote)?;
        let log = reflog::since(&reflog::log_of(repo.common_dir(), refname), started.timestamp() - 1)?;
        // Oldest first: the sort below keeps a ref's own order within a second.
        for l in log.into_iter().rev() {
            let kind = if l.message == "update by push" {
                Kind::Push
            } else if !l.message.starts_with("clone: ")
                && evidence::from_remote(repo.root(), &l, remote, url.as_deref())
            {
                Kind::Fetch
            } else {
                continue;
            };
            lines.push((l.time, kind, l.old, l.new));
        }
    }
    lines.sort_by_key(|l| (l.0, l.1));
    let git = &repo.git;
    let start = match start {
        Some(s) => match Oid::from_str(s).ok().filter(|o| git.find_commit(*o).is_ok()) {
            Some(o) => Some(o),
            // The change set says the start commit is missing.
            None => return Ok(None),
        },
        None => None,
    };
    let fetched = lines.iter().any(|l| l.1 == Kind::Fetch);
    let head = super::parse(head)?;

    // HEAD's commits since the start, newest first, with their parents.
    let mut walk = git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    if let Some(s) = start {
        walk.hide(s).map_err(|e| Unread::git(&s.to_string(), &e))?;
    }
    walk.push(head).map_err(|e| Unread::git(&head.to_string(), &e))?;
    let mut on_head: Vec<Oid> = Vec::new();
    for oid in walk {
        if on_head.len() == WALKED {
            return Ok(None);
        }
        on_head.push(oid.map_err(|e| Unread::git("the history", &e))?);
    }
    // What the remote-tracking refs held at the start, read only where it
    // may be on HEAD: walking every one of them hiding the start reads each
    // remote branch's history down to where it left the trunk, at every
    // check (a third of a check at eight tracked branches).
    let made_by_head = super::attribution::made_by_head_since(repo, record)?;
    let held = if fetched || may_hold_others(repo, &on_head, &made_by_head, started.timestamp())? {
        held::read(repo, record, start)?
    } else {
        HashSet::new()
    };
    if held.is_empty() && !fetched {
        return Ok(None);
    }
    let mut walked = 0;

    // Which line first brought each commit: a fetch, or a push from here;
    // what a remote-tracking ref held at the start, before any line.
    let mut first: HashMap<Oid, Kind> = held.iter().map(|c| (*c, Kind::Fetch)).collect();
    for (_, kind, old, new) in &lines {
        let Some(new) = Oid::from_str(new).ok().filter(|o| !o.is_zero() && git.find_commit(*o).is_ok()) else {
            continue;
        };
        let mut walk = git.revwalk().map_err(|e| Unread::git("the history", &e))?;
        for hidden in start.into_iter().chain(Oid::from_str(old).ok().filter(|o| !o.is_zero())) {
            match walk.hide(hidden) {
                Err(e) if e.code() != git2::ErrorCode::NotFound => return Err(Unread::git(&hidden.to_string(), &e)),
                _ => {}
            }
        }
        walk.push(new).map_err(|e| Unread::git(&new.to_string(), &e))?;
        for oid in walk {
            walked += 1;
            if walked > WALKED {
                return Ok(None);
            }
            first.entry(oid.map_err(|e| Unread::git("the history", &e))?).or_insert(*kind);
        }
    }
    if !fetched && !on_head.iter().any(|c| held.contains(c)) && !copies_any(repo, &on_head, &held)? {
        return Ok(None);
    }
    let mut made = made_by_head;
    // Made here though no reflog says so any more: a linked worktree's
    // work, the worktree removed, landed and pulled back (`made_here`).
    made.extend(made_here::since(repo, record, started.into(), start)?);
    // Held at the start, it was made before it: whatever HEAD's reflog
    // says of it since (a rebase's pick that reuses it names it made).
    // Brought by a fetch, not written here, yet committed under this
    // repository's own address: committed in another clone, whatever
    // `--author` named (test/cases/658). A commit written here by a rebase
    // or cherry-pick of a colleague's keeps their author and is told by
    // HEAD's reflog (`made`) and by the copy below, never by this.
    let own = made_here::own_addresses(repo, record);
    let committed_elsewhere: HashSet<Oid> = if own.is_empty() {
        HashSet::new()
    } else {
        first
            .iter()
            .filter(|(c, k)| **k == Kind::Fetch && !held.contains(*c) && !made.contains(*c))
            .map(|(c, _)| *c)
            .filter(|c| git.find_commit(*c).is_ok_and(|k| made_here::is_own(&own, &k.committer())))
            .collect()
    };
    let others = |c: &Oid| {
        held.contains(c)
            || (first.get(c) == Some(&Kind::Fetch) && !made.contains(c) && !committed_elsewhere.contains(c))
    };
    let mut arrived: HashSet<Oid> = on_head.iter().copied().filter(|c| others(c)).collect();
    // The task's commits that copy another's (a cherry-pick, a rebase's
    // pick of it): the paths where they hold what it holds are its.
    let mut own_paths: HashMap<Oid, BTreeSet<RepoPath>> = HashMap::new();
    let mut by_author: Option<HashMap<Author, Vec<Oid>>> = None;
    let not_arrived: Vec<Oid> = on_head.iter().copied().filter(|c| !arrived.contains(c)).collect();
    for c in not_arrived {
        let paths = changed_by(repo, c)?;
        let by_author = match &mut by_author {
            Some(m) => m,
            None => by_author.insert(authors(repo, first.keys().copied().filter(|c| others(c)))?),
        };
        let originals = by_author.get(&author_of(repo, c)?).map_or(&[][..], Vec::as_slice);
        let mine = not_copied(repo, c, paths.clone(), originals)?;
        if mine.is_empty() && !paths.is_empty() {
            arrived.insert(c);
        } else {
            own_paths.insert(c, mine);
        }
    }
    if arrived.is_empty() {
        return Ok(None);
    }
    let on_head_set: HashSet<Oid> = on_head.iter().copied().collect();
    let own: Vec<Oid> = on_head.iter().copied().filter(|c| !arrived.contains(c)).collect();
    // Made here, or pushed from here before any fetch brought it, and not on HEAD.
    let mut elsewhere: Vec<Oid> = made
        .iter()
        .copied()
        .chain(first.iter().filter(|(_, k)| **k == Kind::Push).map(|(c, _)| *c))
        .filter(|c| !on_head_set.contains(c) && git.find_commit(*c).is_ok())
        // A line timed in the start's own second may name what the start held.
        .filter(|c| start.map_or(true, |s| s != *c && !git.graph_descendant_of(s, *c).unwrap_or(false)))
        // Held at the start: made before it, whatever a rebase's pick says.
        .filter(|c| !held.contains(c))
        .collect();
    elsewhere.sort();
    elsewhere.dedup();

    let mut touched: BTreeSet<RepoPath> = BTreeSet::new();
    for paths in own_paths.into_values() {
        touched.extend(paths);
    }
    let tree_of = |c: Oid| -> Reading<git2::Tree<'_>> {
        git.find_commit(c).and_then(|c| c.tree()).map_err(|e| Unread::git(&format!("the tree of {c}"), &e))
    };
    let start_tree = start.map(tree_of).transpose()?;
    let head_tree = tree_of(head)?;
    // A commit rewritten onto HEAD (`git pull --rebase`, an amend that
    // keeps the message) keeps its author, its author date and its
    // message: the rewrite is HEAD's, the original nobody's. Two commits of
    // one author in one second are not one (an agent commits twice in a
    // second easily: test/cases/484); an amend that rewrote the message
    // reads as another commit, whose work may be on HEAD by a squash, as
    // every other one's.
    let author = |c: Oid| identity_of(repo, c);
    let rewritten: HashSet<Identity> = own.iter().map(|c| author(*c)).collect::<Reading<_>>()?;
    let entry_at = |t: Option<&git2::Tree<'_>>, p: &RepoPath| {
        t.and_then(|t| t.get_path(&p.under(std::path::Path::new(""))).ok()).map(|e| (e.id(), e.filemode()))
    };
    let mut kept_elsewhere = 0;
    let mut not_rewritten = false;
    for c in &elsewhere {
        let paths = changed_by(repo, *c)?;
        if !rewritten.contains(&author(*c)?) {
            not_rewritten = true;
            let theirs = tree_of(*c)?;
            let held = paths.iter().any(|p| {
                let now = entry_at(Some(&head_tree), p);
                now == entry_at(Some(&theirs), p) && now != entry_at(start_tree.as_ref(), p)
            });
            kept_elsewhere += usize::from(held);
        }
        touched.extend(paths);
    }
    // The tips of what arrived: each arrived commit no other reaches
    // through HEAD's commits since the start, and that reaches none of the
    // task's own there (a merge made on the forge of the task's pushed
    // work holds it). Where the task made commits HEAD does not reach, a
    // squash of them may hold its work under any arrived commit: none.
    let mut parents: HashMap<Oid, Vec<Oid>> = HashMap::new();
    let mut parents_of = |c: Oid| -> Reading<Vec<Oid>> {
        if let Some(p) = parents.get(&c) {
            return Ok(p.clone());
        }
        let commit = git.find_commit(c).map_err(|e| Unread::git(&format!("the commit {c}"), &e))?;
        let p: Vec<Oid> = commit.parent_ids().collect();
        parents.insert(c, p.clone());
        Ok(p)
    };
    let mut reached: HashSet<Oid> = HashSet::new();
    let mut queue: Vec<Oid> = Vec::new();
    for c in &arrived {
        queue.extend(parents_of(*c)?);
    }
    while let Some(c) = queue.pop() {
        if !on_head_set.contains(&c) || !reached.insert(c) {
            continue;
        }
        queue.extend(parents_of(c)?);
    }
    let in_order: Vec<Oid> = on_head.iter().copied().filter(|c| arrived.contains(c)).collect();
    let mut tips = Vec::new();
    for tip in in_order.iter().copied().filter(|c| !reached.contains(c)) {
        if not_rewritten {
            break;
        }
        let (mut seen, mut queue, mut holds_own) = (HashSet::new(), vec![tip], false);
        while let Some(c) = queue.pop() {
            if !on_head_set.contains(&c) || !seen.insert(c) {
                continue;
            }
            if !arrived.contains(&c) {
                holds_own = true;
                break;
            }
            queue.extend(parents_of(c)?);
        }
        if !holds_own {
            tips.push(tip.to_string());
        }
    }
    let holds_own = holds_work(git, &touched, start_tree.as_ref(), &head_tree, &tips)?;
    Ok(Some(Arrival {
        commits: in_order.iter().take(LISTED).map(Oid::to_string).collect(),
        count: in_order.len(),
        tips,
        own: own.iter().take(LISTED).map(Oid::to_string).collect(),
        own_count: own.len(),
        made_elsewhere: kept_elsewhere,
        touched,
        holds_own,
    }))
}

/// Whether HEAD holds some of the task's work: a path its own commits
/// changed (`touched`) where HEAD's entry is neither the start commit's
/// nor any of the newest arrived commits' (`tips`). A path where HEAD
/// holds what a colleague's pulled commit holds is theirs, whatever the
/// task's commits did to it on the way: its edit and its revert, rebased
/// over their edit of the same file, leave HEAD with their content alone
/// (test/cases/521). Read only where something arrived: a tree lookup per
/// touched path HEAD changed, per tip.
fn holds_work(
    git: &git2::Repository,
    touched: &BTreeSet<RepoPath>,
    start: Option<&git2::Tree<'_>>,
    head: &git2::Tree<'_>,
    tips: &[String],
) -> Reading<bool> {
    if touched.is_empty() {
        return Ok(false);
    }
    let changed = crate::trees::changed_paths(git, start, Some(head))
        .map_err(|e| Unread::git("the commits since the start", &e))?;
    let mut tip_trees = Vec::with_capacity(tips.len());
    for tip in tips {
        let tree = Oid::from_str(tip)
            .and_then(|o| git.find_commit(o))
            .and_then(|c| c.tree())
            .map_err(|e| Unread::git(&format!("the tree of {tip}"), &e))?;
        tip_trees.push(tree);
    }
    let entry_at = |t: &git2::Tree<'_>, p: &RepoPath| {
        t.get_path(&p.under(std::path::Path::new(""))).ok().map(|e| (e.id(), e.filemode()))
    };
    // The policy file is the task's rules, not its work (as
    // `measurable`'s tree comparison reads it: test/cases/656).
    let policy = majordomus_records::paths::POLICY_FILE.as_bytes();
    Ok(changed
        .iter()
        .filter(|p| touched.contains(*p) && p.as_bytes() != policy)
        .any(|p| tip_trees.iter().all(|tip| entry_at(tip, p) != entry_at(head, p))))
}

/// A commit's author: name, address and time, which a cherry-pick, a
/// rebase's pick and an amend keep.
type Author = (Vec<u8>, Vec<u8>, i64);

fn author_of(repo: &Repo, c: Oid) -> Reading<Author> {
    let commit = repo.git.find_commit(c).map_err(|e| Unread::git(&format!("the commit {c}"), &e))?;
    let a = commit.author();
    Ok((a.name_bytes().to_vec(), a.email_bytes().to_vec(), a.when().seconds()))
}

/// What a rewrite keeps of a commit: its author (as [`author_of`]) and its
/// message.
type Identity = (Vec<u8>, Vec<u8>, i64, Vec<u8>);

fn identity_of(repo: &Repo, c: Oid) -> Reading<Identity> {
    let commit = repo.git.find_commit(c).map_err(|e| Unread::git(&format!("the commit {c}"), &e))?;
    let a = commit.author();
    Ok((a.name_bytes().to_vec(), a.email_bytes().to_vec(), a.when().seconds(), commit.message_bytes().to_vec()))
}

/// Commits by their author.
fn authors(repo: &Repo, commits: impl Iterator<Item = Oid>) -> Reading<HashMap<Author, Vec<Oid>>> {
    let mut out: HashMap<Author, Vec<Oid>> = HashMap::new();
    for c in commits {
        out.entry(author_of(repo, c)?).or_default().push(c);
    }
    Ok(out)
}

/// Of the paths `commit` changed, those where it does not hold what one of
/// `originals` (others' commits under its author) changed the path to: a
/// cherry-pick or a rebase's pick of a colleague's commit holds their work,
/// not the task's, at every path it changed as they did; where the task
/// changed it further (an amend, a conflict resolved its own way), the
/// path is the task's.
fn not_copied(repo: &Repo, commit: Oid, paths: BTreeSet<RepoPath>, originals: &[Oid]) -> Reading<BTreeSet<RepoPath>> {
    if originals.is_empty() || paths.is_empty() {
        return Ok(paths);
    }
    let tree_of = |c: Oid| -> Reading<git2::Tree<'_>> {
        repo.git.find_commit(c).and_then(|c| c.tree()).map_err(|e| Unread::git(&format!("the tree of {c}"), &e))
    };
    let entry_at = |t: &git2::Tree<'_>, p: &RepoPath| {
        t.get_path(&p.under(std::path::Path::new(""))).ok().map(|e| (e.id(), e.filemode()))
    };
    let mine = tree_of(commit)?;
    let mut left = paths;
    for o in originals {
        let theirs = tree_of(*o)?;
        let changed = changed_by(repo, *o)?;
        left.retain(|p| !(changed.contains(p) && entry_at(&mine, p) == entry_at(&theirs, p)));
    }
    Ok(left)
}

/// Whether a commit on HEAD since the start may be one a remote-tracking
/// ref held at the start, or a copy of one: one HEAD's reflog does not
/// show made here since (a checkout, reset or fast-forward brought it), one
/// whose committer is not its author (a cherry-pick or a rebase's pick
/// keeps the author and names a new committer), or one committed before
/// the start (a pick that reused the commit as it was). None of these, and
/// no fetch since the start, is the common check: the task's own commits
/// alone, and what the remotes held is not read.
fn may_hold_others(repo: &Repo, on_head: &[Oid], made: &HashSet<Oid>, started: i64) -> Reading<bool> {
    for c in on_head {
        if !made.contains(c) {
            return Ok(true);
        }
        let commit = repo.git.find_commit(*c).map_err(|e| Unread::git(&format!("the commit {c}"), &e))?;
        let (a, m) = (commit.author(), commit.committer());
        let same = a.name_bytes() == m.name_bytes()
            && a.email_bytes() == m.email_bytes()
            && a.when().seconds() == m.when().seconds();
        if !same || m.when().seconds() < started {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether one of `commits` has the author of one of `held`: where no
/// fetch since the start brought anything and no commit held at the start
/// is on HEAD, only a copy of one can be another's. A copy is committed by
/// whoever copied it, at another time: a commit whose author is its
/// committer copies nothing, and then `held` is not read (the common
/// check: the task's own commits, colleagues' branches left alone).
fn copies_any(repo: &Repo, commits: &[Oid], held: &HashSet<Oid>) -> Reading<bool> {
    let mut keys = HashSet::new();
    for c in commits {
        let commit = repo.git.find_commit(*c).map_err(|e| Unread::git(&format!("the commit {c}"), &e))?;
        let (a, m) = (commit.author(), commit.committer());
        let same = a.name_bytes() == m.name_bytes()
            && a.email_bytes() == m.email_bytes()
            && a.when().seconds() == m.when().seconds();
        if !same {
            keys.insert(author_of(repo, *c)?);
        }
    }
    if keys.is_empty() {
        return Ok(false);
    }
    for c in held {
        if keys.contains(&author_of(repo, *c)?) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Every commit a remote-tracking ref held at the start (the snapshot's)
/// that the start commit does not reach: another's, or work made before
/// the start, whichever way it reaches HEAD since (an auto-fetch before
/// `start`, then `git pull --rebase`). Cut short past [`WALKED`] commits
/// walked: what was read of it is still held.
fn held_at_start(repo: &Repo, record: &TaskRecord, start: Option<Oid>) -> Reading<HashSet<Oid>> {
    let git = &repo.git;
    // A local branch's tip at the start is as much a ref held then as a
    // remote-tracking ref's: work on a branch before the start, merged
    // since, was made before it (test/cases/637).
    let tips: BTreeSet<Oid> = record
        .snapshot
        .remote_refs
        .iter()
        .chain(record.snapshot.branches.iter())
        .flat_map(|refs| refs.values())
        .filter_map(|c| Oid::from_str(c).ok())
        .filter(|c| Some(*c) != start && git.find_commit(*c).is_ok())
        .collect();
    let mut held = HashSet::new();
    if tips.is_empty() {
        return Ok(held);
    }
    let mut walk = git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    if let Some(s) = start {
        walk.hide(s).map_err(|e| Unread::git(&s.to_string(), &e))?;
    }
    for tip in tips {
        walk.push(tip).map_err(|e| Unread::git(&tip.to_string(), &e))?;
    }
    for oid in walk.take(WALKED) {
        held.insert(oid.map_err(|e| Unread::git("the history", &e))?);
    }
    Ok(held)
}

/// The paths a commit changed as its own ([`crate::trees::own_change`]).
fn changed_by(repo: &Repo, commit: Oid) -> Reading<BTreeSet<RepoPath>> {
    let c = repo.git.find_commit(commit).map_err(|e| Unread::git(&format!("the commit {commit}"), &e))?;
    crate::trees::own_change(&repo.git, &c).map_err(|e| Unread::git(&format!("the commit {commit}"), &e))
}

pub(super) mod made_here;
pub use made_here::addresses_now;
mod held;
mod moved_on;
pub use moved_on::{others_version, others_version_beside_own};

#[cfg(test)]
mod tests;
