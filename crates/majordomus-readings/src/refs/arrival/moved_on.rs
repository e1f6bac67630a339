//! A file others moved on since the start: the commit at which one path
//! stands as only the commits that arrived left it.
//!
//! The policy file is the case (README.md, "The policy in force"): a
//! colleague changes a gate's command on the trunk along with the tree it
//! runs over (`git mv tests checks`), and the task pulls it. That change is
//! the trunk's, not the task's loosening; judged as the task's, the start's
//! command fails over the pulled tree whatever the task does. So where the
//! path was changed since the start only by commits that arrived
//! ([`super::arrived`]: a fetch brought them and this worktree did not make
//! them), the newest of those is where the start's file moved on to, and
//! the task's own changes are read against it. Each of those commits must
//! have come by the trunk ([`on_the_trunk`]): a colleague's loosening on a
//! side branch arrives too, and merging it is the task's choice
//! (test/cases/583).
//!
//! Arrival tells a commit made here by HEAD's reflog, a push line, or a
//! loose object written since the start under this repository's own
//! address. Here it is read more strictly still: a commit that changed the
//! path, authored or committed under this repository's own address, is the
//! task's wherever it was made (another clone on this machine, a peer
//! worktree, and whether the fetch left it loose or packed; `git commit
//! --author` names another author, never another committer:
//! test/cases/650). A colleague who shares
//! that address is then read as the task, and their change stays named
//! and not in force: the conservative reading, said in the README.

use std::collections::HashSet;
use std::path::Path;

use git2::Oid;
use majordomus_records::task::TaskRecord;

use super::{arrived, WALKED};
use crate::reflog;
use crate::refs::evidence::{self, RemoteEvidence};
use crate::{Reading, Repo, Unread};

/// A blob's modes in a tree: a regular file, or an executable one.
const MODES_FILE: [i32; 2] = [0o100644, 0o100755];

/// The arrived commit at which `path` stands as only others changed it
/// since the start, or `None`: nothing arrived on HEAD; the task's own
/// commits (on HEAD, or made here and fetched back) changed it; its tips of
/// what arrived ([`super::Arrival::tips`]) do not agree on it or hold none
/// that changed it; a commit that changed it is authored or committed under this
/// repository's own address, or that address is not known; a commit that
/// changed it is one the trunk did not bring ([`on_the_trunk`]); or the path is
/// not a regular file there and at the start (a symbolic link on the way
/// hides which commit changed what it leads to).
pub fn others_version(
    repo: &Repo,
    record: &TaskRecord,
    head: &str,
    evidence: &RemoteEvidence,
    path: &str,
) -> Reading<Option<Oid>> {
    Ok(others_version_beside_own(repo, record, head, evidence, path)?.filter(|(_, touched)| !touched).map(|(t, _)| t))
}

/// [`others_version`], also where the task's own commits changed the path
/// since: the arrived commit, and whether the task's own commits changed
/// the path too. The caller takes from it only what adds strictness: a
/// colleague's stricter change the task pulled and then undid (`git
/// revert` of it, or an edit) is still the trunk's (test/cases/585).
pub fn others_version_beside_own(
    repo: &Repo,
    record: &TaskRecord,
    head: &str,
    evidence: &RemoteEvidence,
    path: &str,
) -> Reading<Option<(Oid, bool)>> {
    let Some(arrival) = arrived(repo, record, Some(head), evidence)? else { return Ok(None) };
    let rel = majordomus_records::RepoPath::from_bytes(path.as_bytes().to_vec());
    let touched = arrival.touched(&rel);
    let own = super::made_here::own_addresses(repo, record);
    if own.is_empty() {
        return Ok(None);
    }
    let git = &repo.git;
    let start = match record.head.as_deref() {
        Some(s) => Some(super::super::parse(s)?),
        None => None,
    };
    let then = match start {
        Some(s) => match entry(repo, s, path)? {
            Entry::File(id) => Some(id),
            Entry::Absent => None,
            Entry::Other => return Ok(None),
        },
        None => None,
    };
    let mut moved: Option<(Oid, Oid)> = None;
    for tip in &arrival.tips {
        let tip = super::super::parse(tip)?;
        let id = match entry(repo, tip, path)? {
            Entry::File(id) => Some(id),
            Entry::Absent => None,
            Entry::Other => return Ok(None),
        };
        if id == then {
            continue;
        }
        let Some(id) = id else { return Ok(None) };
        match moved {
            Some((_, other)) if other != id => return Ok(None),
            Some(_) => {}
            None => moved = Some((tip, id)),
        }
    }
    let Some((tip, _)) = moved else { return Ok(None) };
    // Every commit since the start the tip reaches that changed the path:
    // others' each, and each brought by the trunk.
    let mut trunk_delivered: Option<HashSet<Oid>> = None;
    let mut walk = git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    if let Some(s) = start {
        walk.hide(s).map_err(|e| Unread::git(&s.to_string(), &e))?;
    }
    walk.push(tip).map_err(|e| Unread::git(&tip.to_string(), &e))?;
    for (walked, oid) in walk.enumerate() {
        let oid = oid.map_err(|e| Unread::git("the history", &e))?;
        if walked >= WALKED {
            return Ok(None);
        }
        if !changed(repo, oid, path)? {
            continue;
        }
        let commit = git.find_commit(oid).map_err(|e| Unread::git(&format!("the commit {oid}"), &e))?;
        if super::made_here::is_own_commit(&own, &commit) {
            return Ok(None);
        }
        let trunk = match &trunk_delivered {
            Some(t) => t,
            None => trunk_delivered.insert(on_the_trunk(repo, record, evidence, &own, start)?),
        };
        if !trunk.contains(&oid) {
            return Ok(None);
        }
    }
    Ok(Some((tip, touched)))
}

/// The commits the trunk delivered by the remote's doing: what its
/// remote-tracking ref held at the start beyond the start commit (an
/// editor's auto-fetch before `start`, test/cases/485), and what each
/// fetch of its remote since brought it (the walk from the line's new
/// value, hiding its old one and the start), but a fetch that also
/// brought a commit authored or committed under this repository's own address: that
/// is the task's work landed on the trunk (its pull request merged, and
/// whatever its branch had merged in with it). A colleague's policy
/// change is moved on to only where the trunk brought it so: a branch
/// that was no trunk (a remote's side branch, held at the start or
/// fetched since), merged in by the task and pushed onto the trunk, is
/// the task's choice of loosening, not the trunk's change
/// (test/cases/583). Read only where a commit others made changed the
/// path: one reflog and a walk per fetch line of the trunk's ref.
fn on_the_trunk(
    repo: &Repo,
    record: &TaskRecord,
    evidence: &RemoteEvidence,
    own: &[String],
    start: Option<Oid>,
) -> Reading<HashSet<Oid>> {
    let mut delivered = HashSet::new();
    let Some(trunk) = record.snapshot.trunk.as_deref() else { return Ok(delivered) };
    // (the value the trunk's ref took, the one it left, whether the remote did it alone)
    let mut batches: Vec<(Oid, Option<Oid>, bool)> = Vec::new();
    if let Some(at_start) = record.snapshot.remote_refs.as_ref().and_then(|r| r.get(trunk)) {
        batches.push((super::super::parse(at_start)?, None, false));
    }
    if let Some((_, remote)) = evidence.moved.iter().find(|(name, _)| name == trunk) {
        let Ok(started) = record.started_at() else { return Ok(delivered) };
        let url = evidence::fetch_url(repo, remote)?;
        for l in reflog::since(&reflog::log_of(repo.common_dir(), trunk), started.timestamp() - 1)? {
            if l.message == "update by push"
                || l.message.starts_with("clone: ")
                || !evidence::from_remote(repo.root(), &l, remote, url.as_deref())
            {
                continue;
            }
            let Ok(new) = Oid::from_str(&l.new) else { continue };
            batches.push((new, Oid::from_str(&l.old).ok().filter(|o| !o.is_zero()), true));
        }
    }
    let git = &repo.git;
    for (new, old, fetched) in batches {
        if new.is_zero() || git.find_commit(new).is_err() {
            continue;
        }
        let mut walk = git.revwalk().map_err(|e| Unread::git("the history", &e))?;
        for hidden in start.into_iter().chain(old) {
            match walk.hide(hidden) {
                Err(e) if e.code() != git2::ErrorCode::NotFound => return Err(Unread::git(&hidden.to_string(), &e)),
                _ => {}
            }
        }
        walk.push(new).map_err(|e| Unread::git(&new.to_string(), &e))?;
        let mut brought = Vec::new();
        for (walked, oid) in walk.enumerate() {
            if walked >= WALKED {
                return Ok(HashSet::new());
            }
            brought.push(oid.map_err(|e| Unread::git("the history", &e))?);
        }
        if fetched {
            let mut task_landed = false;
            for c in &brought {
                let commit = git.find_commit(*c).map_err(|e| Unread::git(&format!("the commit {c}"), &e))?;
                if super::made_here::is_own_commit(own, &commit) {
                    task_landed = true;
                    break;
                }
            }
            if task_landed {
                continue;
            }
        }
        delivered.extend(brought);
    }
    Ok(delivered)
}

/// What a commit's tree holds at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    File(Oid),
    Absent,
    /// A link, a directory, a submodule, or a leading directory that is none.
    Other,
}

fn entry(repo: &Repo, commit: Oid, path: &str) -> Reading<Entry> {
    let tree = repo
        .git
        .find_commit(commit)
        .and_then(|c| c.tree())
        .map_err(|e| Unread::git(&format!("the tree of {commit}"), &e))?;
    let found = match tree.get_path(Path::new(path)) {
        Ok(e) => e,
        Err(e) if e.code() == git2::ErrorCode::NotFound => {
            // A leading directory that is a link or a file is no absence.
            let mut at = Path::new(path).parent();
            while let Some(dir) = at.filter(|d| !d.as_os_str().is_empty()) {
                if tree.get_path(dir).is_ok_and(|d| d.kind() != Some(git2::ObjectType::Tree)) {
                    return Ok(Entry::Other);
                }
                at = dir.parent();
            }
            return Ok(Entry::Absent);
        }
        Err(e) => return Err(Unread::git(&format!("{path} in {commit}"), &e)),
    };
    Ok(if MODES_FILE.contains(&found.filemode()) { Entry::File(found.id()) } else { Entry::Other })
}

/// Whether a commit changed the path: it differs there from every parent
/// (what a merge took from one side is that side's change).
fn changed(repo: &Repo, commit: Oid, path: &str) -> Reading<bool> {
    let c = repo.git.find_commit(commit).map_err(|e| Unread::git(&format!("the commit {commit}"), &e))?;
    let here = entry(repo, commit, path)?;
    if c.parent_count() == 0 {
        return Ok(here != Entry::Absent);
    }
    for parent in c.parent_ids() {
        if entry(repo, parent, path)? == here {
            return Ok(false);
        }
    }
    Ok(true)
}
