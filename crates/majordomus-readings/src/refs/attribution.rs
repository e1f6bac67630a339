//! Work this worktree made that a local branch other than HEAD's holds.
//!
//! A task can commit on a branch and switch away (`git checkout topic;
//! git commit; git checkout main`), or commit on a detached HEAD and put
//! the commit on a branch (`git branch -f topic HEAD`): HEAD then holds
//! none of it, and asking only of HEAD would call it pushed. Two records
//! say what this worktree made, and neither is enough alone:
//!
//! - this worktree's HEAD reflog: every commit HEAD pointed at since the
//!   start. It attributes work on a branch made since the start too, but
//!   `git reflog expire --expire=now --all` empties it;
//! - the start snapshot's branches: a branch that existed at the start and
//!   holds commits it did not hold then moved during the task. The
//!   snapshot cannot be expired.
//!
//! So a commit on a branch other than HEAD's is this task's when the
//! branch existed at the start and moved (unless a worktree that existed
//! at the start has it checked out now: a parallel agent's branch is its
//! own), or when HEAD's reflog since the start names it. A commit the start already held (on
//! any branch, or at the start commit) is inherited, and one a counted
//! remote-tracking ref holds is pushed: neither is listed.
//!
//! A tag holds work the same way (`git tag wip` on a detached HEAD's
//! commit, then back to the branch, test/cases/285): a tag holding a
//! commit HEAD's reflog names since the start is read like a branch made
//! since, listed apart ([`Elsewhere::tags`]). Tags are read only when
//! HEAD's reflog since the start names a commit at all. Any ref written
//! since the start, a tag or one of the worker's own naming, is read
//! too, whoever made its commits ([`super::kept`]), listed apart
//! ([`Elsewhere::kept`]). So is a remote-tracking ref that is not
//! evidence of its remote ([`RemoteEvidence::uncounted`]: `git update-ref
//! refs/remotes/origin/wip HEAD` before a reset, or a push no reflog line
//! shows), at a commit this worktree made since the start, for those
//! commits (HEAD's reflog names them, or they are loose commits written
//! here since under the repository's own address: [`loose_work`],
//! test/cases/448); where that reflog was rewritten since, for every
//! commit no branch held at the start, unless the ref's own reflog shows
//! a fetch (test/cases/347).
//!
//! One walk reads the new commits of every branch that moved (those
//! unchanged since the start cost nothing), bounded by [`WALKED`]; each
//! branch's share is then found within that set.

use std::collections::{BTreeMap, HashMap, HashSet};

use git2::Oid;
use majordomus_records::task::TaskRecord;

use super::evidence::RemoteEvidence;
use super::{parse, Branch, Head, LISTED};
use crate::reflog;
use crate::{Reading, Repo, Unread};

/// At most this many commits are walked on the branches that moved.
pub const WALKED: usize = 20_000;

/// Why a branch's commits are this task's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Made {
    /// The branch existed at the start and moved since.
    BranchMoved,
    /// HEAD's reflog since the start names them.
    HeadReflog,
    /// A ref other than a branch written since the start holds them, and
    /// no branch held them at the start.
    RefWritten,
    /// A remote-tracking ref that is not evidence of its remote holds them
    /// (test/cases/347).
    NotEvidence,
    /// A branch a peer worktree has checked out holds them, and the
    /// peer's own reflog does not show them made there (test/cases/430,
    /// 444).
    PeerUnproven,
}

/// The commits of one branch other than HEAD's that this worktree made
/// since the start and no counted remote-tracking ref holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchWork {
    pub branch: String,
    /// At most [`LISTED`], the branch's tip first.
    pub commits: Vec<String>,
    pub count: usize,
    pub made: Made,
}

/// What of other branches is this worktree's unpushed work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Elsewhere {
    pub branches: Vec<BranchWork>,
    /// The same for tags (`branch` is the tag's name, `made` is
    /// [`Made::HeadReflog`]).
    pub tags: Vec<BranchWork>,
    /// The same for any other ref written since the start (`branch` is its
    /// full name, `made` is [`Made::RefWritten`]), the tags listed above
    /// aside.
    pub kept: Vec<BranchWork>,
    /// Every packed ref was read for [`Elsewhere::kept`]: `packed-refs`
    /// changed since the start in what it holds of them.
    pub kept_all_packed: bool,
    /// Branches that moved or appeared since the start and hold unpushed
    /// commits not attributed to this worktree (another worktree has them
    /// checked out, or HEAD's reflog does not name them), by name.
    pub not_attributed: Vec<String>,
    /// The walk stopped at [`WALKED`] commits: more may be unpushed.
    pub truncated: bool,
    /// HEAD's reflog was rewritten since the start (`git reflog expire`):
    /// it cannot say whose a tag's new commit is, so every tag holding one
    /// is listed in [`Elsewhere::tags`].
    pub reflog_rewritten: bool,
}

/// Reads the unpushed work of this worktree on branches other than HEAD's.
pub fn elsewhere(
    repo: &Repo,
    head: &Head,
    branches: &[Branch],
    evidence: &RemoteEvidence,
    record: &TaskRecord,
) -> Reading<Elsewhere> {
    let Some(at_start) = &record.snapshot.branches else {
        return Err(Unread::record(
            "the task record holds no snapshot of the branches at the start, so the work on other branches cannot be told from what was there",
        ));
    };
    // The branches that moved since the start (`branches` says which are
    // still at the snapshot's commit: read against this record's snapshot).
    let moved: Vec<&Branch> =
        branches.iter().filter(|b| head.branch.as_deref() != Some(b.name.as_str())).filter(|b| !b.at_start).collect();
    let (made_here, rewritten) = head_reflog_since(repo, record)?;
    let tags = if rewritten {
        tags_holding(repo, |_| true)?
    } else if made_here.is_empty() {
        Vec::new()
    } else {
        tags_holding(repo, |c| made_here.contains(c))?
    };
    let mut written = super::kept::written_since(repo, record)?;
    let kept: Vec<(String, Oid)> = std::mem::take(&mut written.refs)
        .into_iter()
        .filter(|(name, _)| !tags.iter().any(|(t, _)| name.strip_prefix("refs/tags/") == Some(t.as_str())))
        .collect();
    // A remote-tracking ref that is not evidence of its remote (written by
    // hand, or by a push no reflog line shows) keeps commits as any other
    // ref does: read at a commit this worktree made since the start (HEAD's
    // reflog names it, or it is one of `loose` below), for those commits;
    // where HEAD's reflog was rewritten since, every one whose own reflog
    // does not show a fetch, whoever made its commits (test/cases/347, 448).
    let uncounted: Vec<(String, Oid)> =
        evidence.uncounted.iter().filter_map(|(name, id)| Some((name.clone(), Oid::from_str(id).ok()?))).collect();
    // The commits written here since the start that no reflog need name
    // (see [`loose_work`]), read only where such a ref holds one HEAD's
    // reflog does not.
    let unnamed =
        |(name, tip): &(String, Oid), fetch: bool| !made_here.contains(tip) && (!fetch || !fetched(repo, name));
    let loose = if kept.iter().any(|r| written.mine_only(&r.0) && unnamed(r, false))
        || uncounted.iter().any(|r| unnamed(r, true))
    {
        loose_work(repo, record)?
    } else {
        HashSet::new()
    };
    let mine_by = |c: &Oid| made_here.contains(c) || loose.contains(c);
    // Where git's tools write refs (notes, a bisect's marks), and in a
    // peer worktree's own refs, only a ref at a commit this worktree made
    // since the start is read (HEAD's reflog names it, or it is one of
    // `loose`): a notes history is never walked.
    let kept: Vec<(String, Oid)> = kept
        .into_iter()
        .filter(|(name, tip)| !written.mine_only(name) || mine_by(tip))
        .filter(|(name, tip)| !restates(repo, name, *tip))
        .collect();
    let unproven: Vec<(String, Oid)> = uncounted
        .into_iter()
        .filter(|(name, tip)| made_here.contains(tip) || (!fetched(repo, name) && (rewritten || loose.contains(tip))))
        .collect();
    if moved.is_empty() && tags.is_empty() && kept.is_empty() && unproven.is_empty() {
        return Ok(Elsewhere::default());
    }
    let odb = repo.git.odb().map_err(|e| Unread::git("the object database", &e))?;
    let mut hidden: HashSet<Oid> = evidence.tips().into_iter().collect();
    for id in at_start.values().chain(record.head.as_deref()).chain(head.commit.as_deref()) {
        if let Ok(oid) = Oid::from_str(id) {
            if odb.exists(oid) {
                hidden.insert(oid);
            }
        }
    }
    let mut walk = repo.git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    for oid in &hidden {
        match walk.hide(*oid) {
            Err(e) if e.code() != git2::ErrorCode::NotFound => return Err(Unread::git(&oid.to_string(), &e)),
            _ => {}
        }
    }
    // Pushed after the hidden commits, so the walk starts from them (see
    // `push::not_on_any`).
    for b in &moved {
        walk.push(parse(&b.commit)?).map_err(|e| Unread::git(&b.name, &e))?;
    }
    for (name, tip) in tags.iter().chain(&kept).chain(&unproven) {
        walk.push(*tip).map_err(|e| Unread::git(name, &e))?;
    }
    let mut new: HashSet<Oid> = HashSet::new();
    let mut truncated = false;
    for oid in walk {
        if new.len() == WALKED {
            truncated = true;
            break;
        }
        new.insert(oid.map_err(|e| Unread::git("the history", &e))?);
    }
    let mut out = Elsewhere {
        truncated,
        reflog_rewritten: rewritten,
        kept_all_packed: written.all_packed,
        ..Elsewhere::default()
    };
    if new.is_empty() {
        return Ok(out);
    }
    let checked_out = checked_out_elsewhere(repo)?;
    let mut parents: HashMap<Oid, Vec<Oid>> = HashMap::new();
    for b in moved {
        let reached = reach(repo, parse(&b.commit)?, &new, &mut parents)?;
        if reached.is_empty() {
            continue;
        }
        // A worktree made since the start is no peer: it may be this task's.
        let peer = checked_out.get(&b.name).is_some_and(|w| {
            w == "main" || record.snapshot.worktrees.as_ref().map_or(true, |at_start| at_start.contains_key(w))
        });
        let (mine, made): (Vec<Oid>, Made) = if at_start.contains_key(&b.name) && !peer {
            (reached, Made::BranchMoved)
        } else if peer {
            // A parallel agent's branch is its own, by what its worktree's
            // reflog shows it made there; a commit it does not show (put
            // there by `git update-ref` from here, `git commit-tree` and
            // all, or with this worktree's reflog expired since) is this
            // task's (test/cases/430, 444).
            let theirs = checked_out.get(&b.name).map(|w| made_in_worktree(repo, w)).transpose()?.unwrap_or_default();
            (reached.into_iter().filter(|c| made_here.contains(c) || !theirs.contains(c)).collect(), Made::PeerUnproven)
        } else {
            (reached.into_iter().filter(|c| made_here.contains(c)).collect(), Made::HeadReflog)
        };
        if mine.is_empty() {
            out.not_attributed.push(b.name.clone());
            continue;
        }
        out.branches.push(BranchWork {
            branch: b.name.clone(),
            count: mine.len(),
            commits: mine.iter().take(LISTED).map(Oid::to_string).collect(),
            made,
        });
    }
    for (name, tip) in tags {
        let mine: Vec<Oid> =
            reach(repo, tip, &new, &mut parents)?.into_iter().filter(|c| rewritten || made_here.contains(c)).collect();
        if !mine.is_empty() {
            out.tags.push(BranchWork {
                branch: name,
                count: mine.len(),
                commits: mine.iter().take(LISTED).map(Oid::to_string).collect(),
                made: Made::HeadReflog,
            });
        }
    }
    for (name, tip) in kept {
        let mut mine = reach(repo, tip, &new, &mut parents)?;
        if written.mine_only(&name) {
            mine.retain(mine_by);
        }
        // A peer's own ref keeps the peer's work, as its branch does: what
        // its HEAD reflog shows it made there is its own (test/cases/498).
        if let Some(peer) = super::kept::worktree_of(&name).filter(|_| !mine.is_empty() && written.is_peers(&name)) {
            let theirs = made_in_worktree(repo, peer)?;
            mine.retain(|c| !theirs.contains(c));
        }
        if !mine.is_empty() {
            out.kept.push(BranchWork {
                branch: name,
                count: mine.len(),
                commits: mine.iter().take(LISTED).map(Oid::to_string).collect(),
                made: Made::RefWritten,
            });
        }
    }
    for (name, tip) in unproven {
        let mine: Vec<Oid> =
            reach(repo, tip, &new, &mut parents)?.into_iter().filter(|c| rewritten || mine_by(c)).collect();
        if !mine.is_empty() {
            out.kept.push(BranchWork {
                branch: name,
                count: mine.len(),
                commits: mine.iter().take(LISTED).map(Oid::to_string).collect(),
                made: Made::NotEvidence,
            });
        }
    }
    Ok(out)
}

/// The commits this worktree made since the start whether or not HEAD's
/// reflog names them: a loose commit written since the start under the
/// repository's own address, no peer worktree's ([`super::arrival::made_here`],
/// test/cases/435, 443). HEAD's reflog alone cannot say what a ref under
/// git's tools' names or a remote-tracking ref that is not evidence keeps:
/// with `core.logAllRefUpdates` off it holds nothing, `git reflog delete`
/// takes lines out without touching the start's mark, and `git
/// commit-tree` makes a commit HEAD never points at (test/cases/448). A
/// notes commit (`git notes add`) is written the same way; its tree holds
/// notes, never the project's files, so it is not work ([`holds_notes`],
/// test/cases/327).
fn loose_work(repo: &Repo, record: &TaskRecord) -> Reading<HashSet<Oid>> {
    let Ok(started) = record.started_at() else { return Ok(HashSet::new()) };
    let start = record.head.as_deref().and_then(|h| Oid::from_str(h).ok()).filter(|o| repo.git.find_commit(*o).is_ok());
    let mut made = super::arrival::made_here::since(repo, record, started.into(), start)?;
    made.retain(|c| !holds_notes(repo, *c));
    Ok(made)
}

/// Whether `name` is a replace ref (`refs/replace/X`, `git replace
/// --edit X`) whose commit holds what the commit it replaces holds: the
/// same tree and the same parents, only its message or its author's
/// line told again. It keeps no work of its own.
fn restates(repo: &Repo, name: &str, tip: Oid) -> bool {
    let Some(replaced) = name.strip_prefix("refs/replace/").and_then(|x| Oid::from_str(x).ok()) else { return false };
    let (Ok(new), Ok(old)) = (repo.git.find_commit(tip), repo.git.find_commit(replaced)) else { return false };
    new.tree_id() == old.tree_id() && new.parent_ids().eq(old.parent_ids())
}

/// Whether the commit's tree holds only what a notes tree does: entries
/// named by (a part of) an object id, in hex. An empty tree keeps no file
/// either.
fn holds_notes(repo: &Repo, commit: Oid) -> bool {
    let Ok(tree) = repo.git.find_commit(commit).and_then(|c| c.tree()) else { return false };
    tree.iter().all(|e| e.name_bytes().iter().all(u8::is_ascii_hexdigit))
}

/// Whether the reflog of the remote-tracking ref `name` ends in a fetch:
/// a colleague's branch fetched, not this worktree's work.
fn fetched(repo: &Repo, name: &str) -> bool {
    reflog::last_line(&reflog::log_of(repo.common_dir(), name))
        .ok()
        .flatten()
        .is_some_and(|l| l.message.starts_with("fetch") || l.message.starts_with("pull"))
}

/// The tags (by short name) whose commit `keep` takes (one HEAD's reflog
/// since the start names), with that commit. An annotated tag is peeled
/// through the packed refs' record where there is one, else through its
/// object.
fn tags_holding(repo: &Repo, keep: impl Fn(&Oid) -> bool) -> Reading<Vec<(String, Oid)>> {
    let mut out = Vec::new();
    let odb = repo.git.odb().map_err(|e| Unread::git("the object database", &e))?;
    for tag in super::local::tags(repo.common_dir())? {
        let commit = match tag.peeled {
            Some(peeled) => peeled,
            None if keep(&tag.id) => tag.id,
            // Only a tag object is read whole: what another object is, its
            // header says (a project's hundreds of lightweight tags were
            // each inflated at every check of unpushed work).
            None => match odb.read_header(tag.id) {
                Ok((_, git2::ObjectType::Tag)) => match repo.git.find_tag(tag.id) {
                    Ok(object) => object.target_id(),
                    Err(_) => continue,
                },
                _ => continue,
            },
        };
        if keep(&commit) {
            let name = tag.name.strip_prefix("refs/tags/").map_or_else(|| tag.name.clone(), str::to_string);
            out.push((name, commit));
        }
    }
    Ok(out)
}

/// The commits of `new` that `tip` reaches, the tip first. Every path
/// from a new commit to another goes through new commits only (a commit
/// reached through a hidden one is hidden), so the search stays in `new`.
fn reach(repo: &Repo, tip: Oid, new: &HashSet<Oid>, parents: &mut HashMap<Oid, Vec<Oid>>) -> Reading<Vec<Oid>> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut queue = std::collections::VecDeque::from([tip]);
    while let Some(c) = queue.pop_front() {
        if !new.contains(&c) || !seen.insert(c) {
            continue;
        }
        out.push(c);
        if let std::collections::hash_map::Entry::Vacant(slot) = parents.entry(c) {
            let commit = repo.git.find_commit(c).map_err(|e| Unread::git(&format!("the commit {c}"), &e))?;
            slot.insert(commit.parent_ids().collect());
        }
        queue.extend(parents[&c].iter().copied());
    }
    Ok(out)
}

/// Every commit this worktree's HEAD pointed at since the task's start, by
/// its reflog: the lines appended after where it ended at the start (the
/// snapshot's mark), whatever time they carry (`GIT_COMMITTER_DATE` dates
/// them, test/cases/302), and the lines timed since the start (a second's
/// slack before it: a commit of the start's own second that was there
/// already is hidden as inherited anyway), which is all there is where the
/// mark is lost (`git reflog expire` rewrote the file) or a record written
/// before it was kept holds none. Also whether the mark is lost: the
/// reflog was rewritten since the start (test/cases/304).
fn head_reflog_since(repo: &Repo, record: &TaskRecord) -> Reading<(HashSet<Oid>, bool)> {
    let (lines, rewritten) = head_lines_since(repo, record)?;
    Ok((lines.iter().filter_map(|l| Oid::from_str(&l.new).ok()).collect(), rewritten))
}

/// The commits HEAD's reflog since the start shows this worktree making
/// (a commit, amend, merge, cherry-pick, revert, rebase's pick or am), not
/// those it only moved to (`checkout`, `reset`: a colleague's branch
/// looked at; a fast-forward, `pull: Fast-forward` or a rebase's or
/// cherry-pick's `fast-forward`; a rebase's start, finish or abort, which
/// name the commit it began on or ended at, made or not).
pub fn made_by_head_since(repo: &Repo, record: &TaskRecord) -> Reading<HashSet<Oid>> {
    let (lines, _) = head_lines_since(repo, record)?;
    Ok(lines.iter().filter(|l| making(&l.message)).filter_map(|l| Oid::from_str(&l.new).ok()).collect())
}

/// The commits this repository made since the start that HEAD does not
/// reach, merges included, oldest id first: what may have landed on the
/// trunk around HEAD (`scoped` reads the paths each changed that the
/// trunk's tip `trunk` holds as it left them, test/cases/349). Read
/// whoever's worktree made them and whatever HEAD's reflog still says:
///
/// - the commits HEAD's reflog since the start shows made here
///   ([`made_by_head_since`]), a merge among them (test/cases/492);
/// - where HEAD does not reach the trunk's tip (only then can the trunk
///   hold work HEAD lacks), the loose commits written here since the start
///   under this repository's own address ([`super::arrival::made_here`]: a
///   linked worktree made for the work and removed, test/cases/493, or a
///   reflog expired since);
/// - and where HEAD's reflog was rewritten since the start (`git reflog
///   expire`, perhaps a `git gc` that packed the objects too), every
///   commit the trunk reaches and neither HEAD, the start, the trunk's
///   start value nor a peer's branch does, authored under this
///   repository's own address: a colleague's commit, fetched, is under
///   theirs (test/cases/494). Past [`WALKED`] commits that walk is
///   unread, never a pass.
///
/// Of those, only the commits `keep` takes are returned, and it is asked
/// before the walk from HEAD, so a cheap test (the commit changed
/// `.ai/repo`, or a directory the marker register scans) spares that walk
/// for the rest. A commit gone since (pruned) is left out: it left nothing
/// anywhere.
///
/// `around` keeps the commits so read for the next caller: one check asks
/// for them three times over (`scoped`, `no-new-debt`, `markers-live`), of
/// the same task, HEAD and trunk, and the loose objects are listed once.
pub fn made_around_head<'r>(
    repo: &'r Repo,
    record: &TaskRecord,
    head: Option<Oid>,
    trunk: Oid,
    trunk_at_start: Option<Oid>,
    around: &Around,
    mut keep: impl FnMut(&git2::Commit<'r>) -> bool,
) -> Reading<Vec<git2::Commit<'r>>> {
    let git = &repo.git;
    let reaches = |from: Oid, c: Oid| from == c || git.graph_descendant_of(from, c).unwrap_or(false);
    let made = around.0.get_or_init(|| made_around(repo, record, head, trunk, trunk_at_start)).clone()?;
    let mut out = Vec::new();
    for c in made {
        let Ok(commit) = git.find_commit(c) else { continue };
        if !keep(&commit) || head.is_some_and(|h| reaches(h, c)) {
            continue;
        }
        out.push(commit);
    }
    Ok(out)
}

/// The commits [`made_around_head`] read for one check, kept for its next
/// caller of the same check (made anew for each: the objects change
/// between checks).
#[derive(Debug, Default)]
pub struct Around(std::cell::OnceCell<Reading<Vec<Oid>>>);

/// The commits [`made_around_head`] chooses among, HEAD's reach aside,
/// oldest id first.
fn made_around(
    repo: &Repo,
    record: &TaskRecord,
    head: Option<Oid>,
    trunk: Oid,
    trunk_at_start: Option<Oid>,
) -> Reading<Vec<Oid>> {
    let git = &repo.git;
    let (lines, rewritten) = head_lines_since(repo, record)?;
    let mut made: HashSet<Oid> =
        lines.iter().filter(|l| making(&l.message)).filter_map(|l| Oid::from_str(&l.new).ok()).collect();
    let reaches = |from: Oid, c: Oid| from == c || git.graph_descendant_of(from, c).unwrap_or(false);
    let start = record.head.as_deref().and_then(|h| Oid::from_str(h).ok()).filter(|o| git.find_commit(*o).is_ok());
    if !head.is_some_and(|h| reaches(h, trunk)) {
        if let Ok(started) = record.started_at() {
            made.extend(super::arrival::made_here::since(repo, record, started.into(), start)?);
        }
        if rewritten {
            made.extend(own_on_trunk(repo, record, head, trunk, start.into_iter().chain(trunk_at_start))?);
        }
    }
    let mut made: Vec<Oid> = made.into_iter().collect();
    made.sort();
    Ok(made)
}

/// The commit the trunk's ref `refname` held at the task's start, as its
/// snapshot kept the remote-tracking refs (`None` for a local trunk, or a
/// record that kept none): what [`made_around_head`] sets aside with the
/// start where HEAD's reflog was rewritten.
pub fn trunk_at_start(record: &TaskRecord, refname: &str) -> Option<Oid> {
    record.snapshot.remote_refs.as_ref().and_then(|refs| refs.get(refname)).and_then(|c| Oid::from_str(c).ok())
}

/// The commits the trunk's tip reaches and HEAD, the peers' branches and
/// `hidden` do not, authored under this repository's own address (any,
/// where none is known): what HEAD's reflog would have named, where it was
/// rewritten since the start. Past [`WALKED`] commits, unread.
fn own_on_trunk(
    repo: &Repo,
    record: &TaskRecord,
    head: Option<Oid>,
    trunk: Oid,
    hidden: impl Iterator<Item = Oid>,
) -> Reading<Vec<Oid>> {
    let git = &repo.git;
    let mut walk = git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    for oid in head.into_iter().chain(hidden).chain(peer_tips(repo, record)?) {
        match walk.hide(oid) {
            Err(e) if e.code() != git2::ErrorCode::NotFound => return Err(Unread::git(&oid.to_string(), &e)),
            _ => {}
        }
    }
    walk.push(trunk).map_err(|e| Unread::git("the trunk", &e))?;
    let own = super::arrival::made_here::own_addresses(repo, record);
    let mut out = Vec::new();
    for (n, oid) in walk.enumerate() {
        if n == WALKED {
            return Err(Unread::repository(format!(
                "HEAD's reflog was rewritten since the start (git reflog expire), and the trunk holds more than {WALKED} commits HEAD does not reach: which of them this worktree made, and whether they changed paths outside the scope, was not read"
            )));
        }
        let oid = oid.map_err(|e| Unread::git("the history", &e))?;
        let commit = git.find_commit(oid).map_err(|e| Unread::git(&format!("the commit {oid}"), &e))?;
        if own.is_empty() || super::arrival::made_here::is_own(&own, &commit.author()) {
            out.push(oid);
        }
    }
    Ok(out)
}

/// The commits the HEAD reflog of the worktree `name` (as
/// [`checked_out_elsewhere`] names it: `main`, or one under `worktrees/`)
/// shows it making ([`making`]), all its lines read.
pub(super) fn made_in_worktree(repo: &Repo, name: &str) -> Reading<HashSet<Oid>> {
    let common = repo.common_dir();
    let dir = if name == "main" { common.to_path_buf() } else { common.join("worktrees").join(name) };
    let lines = reflog::since(&reflog::log_of(&dir, "HEAD"), i64::MIN)?;
    Ok(lines.iter().filter(|l| making(&l.message)).filter_map(|l| Oid::from_str(&l.new).ok()).collect())
}

/// Whether a line of HEAD's reflog is one that made its commit.
fn making(message: &str) -> bool {
    const MAKING: &[&str] = &["commit", "merge ", "cherry-pick", "revert", "rebase", "am", "pull"];
    let (action, rest) = message.split_once(": ").unwrap_or((message, ""));
    MAKING.iter().any(|m| action.starts_with(m))
        && !rest.eq_ignore_ascii_case("fast-forward")
        && !["(start)", "(finish)", "(abort)", "finished"].iter().any(|w| action.contains(w))
}

/// [`head_reflog_since`]'s lines, oldest of each source first, and whether
/// the start's mark of the reflog's end is lost.
pub fn head_lines_since(repo: &Repo, record: &TaskRecord) -> Reading<(Vec<reflog::Line>, bool)> {
    let path = reflog::log_of(repo.git_dir(), "HEAD");
    let mut out = Vec::new();
    let mut rewritten = false;
    if let Some(mark) = &record.snapshot.head_log {
        match reflog::after(&path, mark.len, &mark.last)? {
            Some(appended) => out.extend(appended),
            None => rewritten = true,
        }
    }
    if let Ok(started) = record.started_at() {
        out.extend(reflog::since(&path, started.timestamp() - 1)?);
    }
    Ok((out, rewritten))
}

/// The commits of the branches a peer has checked out: a worktree other
/// than this one that existed at the start (the main worktree always),
/// whose work is its own.
pub fn peer_tips(repo: &Repo, record: &TaskRecord) -> Reading<Vec<Oid>> {
    Ok(peer_branches(repo, record)?
        .iter()
        .filter_map(|branch| repo.git.refname_to_id(&format!("refs/heads/{branch}")).ok())
        .collect())
}

/// The branches a peer has checked out (see [`peer_tips`]), by name.
pub fn peer_branches(repo: &Repo, record: &TaskRecord) -> Reading<Vec<String>> {
    let mut out = Vec::new();
    for (branch, worktree) in checked_out_elsewhere(repo)? {
        let peer = worktree == "main"
            || record.snapshot.worktrees.as_ref().map_or(true, |at_start| at_start.contains_key(&worktree));
        if peer {
            out.push(branch);
        }
    }
    Ok(out)
}

/// The branches other worktrees have checked out, with the worktree's name
/// (`main` for the main worktree).
pub(super) fn checked_out_elsewhere(repo: &Repo) -> Reading<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let common = repo.common_dir();
    let mut heads = vec![("main".to_string(), common.join("HEAD"))];
    match std::fs::read_dir(common.join("worktrees")) {
        Ok(entries) => {
            for entry in entries.flatten() {
                heads.push((entry.file_name().to_string_lossy().into_owned(), entry.path().join("HEAD")));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Unread::io(format!("could not read {}: {e}", common.join("worktrees").display()))),
    }
    let ours = repo.git_dir().join("HEAD");
    let same = |a: &std::path::Path, b: &std::path::Path| a.canonicalize().ok() == b.canonicalize().ok();
    for (name, path) in heads {
        if same(&path, &ours) {
            continue;
        }
        let Ok(bytes) = crate::file::read(&path) else { continue };
        if let Some(branch) = String::from_utf8_lossy(&bytes).trim().strip_prefix("ref: refs/heads/") {
            out.insert(branch.to_string(), name);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
