//! Commits made in this repository since the start that no ref holds any
//! more: work whose every record but its objects is gone.
//!
//! A task can work in a linked worktree made for it, push its branch for
//! review, and, once the forge has squash-merged it and deleted the
//! branch, remove the worktree (its HEAD reflog goes with it), delete the
//! branch (its reflog too) and `git pull --prune` (the remote-tracking
//! ref's reflog, and the push line in it, too). What arrives then on HEAD
//! is its own work, and nothing that names commits says so. The objects
//! do: a commit made here is written as a loose object file, at the time
//! it is made. So a loose commit whose file was written since the start,
//! committed under this repository's own `user.email` (any, where none is
//! set), that no ref and no
//! worktree's HEAD reaches, is work made here since the start
//! (test/cases/435). A commit a fetch brought and a peer worktree's live
//! work are reachable; a colleague's is committed under another address.
//! `git gc` packs loose objects: what it packed is not read (a deliberate
//! clean-up, as an expired reflog is).
//!
//! Read only where a fetch brought something onto HEAD since the start
//! ([`super::arrived`]): the common check never lists the objects.

use std::collections::HashSet;
use std::time::SystemTime;

use git2::Oid;

use crate::{Reading, Repo, Unread};

/// At most this many loose object files written since the start are
/// looked at; past it, none is (the reading stays what it was before).
const MAX_LOOKED_AT: usize = 4096;

/// The commits made here since `started` that no ref reaches (see the
/// module's essay); `start`, the start commit, whose history none of them
/// is (a loose file git wrote again, "freshened", is no new commit).
pub fn unreachable_since(repo: &Repo, started: SystemTime, start: Option<Oid>) -> Reading<HashSet<Oid>> {
    // Whose commits are this repository's own: its `user.email`, as git
    // takes it (the environment's first); where none is set, every
    // address (what cannot be told apart counts).
    let email = std::env::var("GIT_COMMITTER_EMAIL")
        .ok()
        .or_else(|| repo.config().ok().and_then(|c| c.get("user.email").map(str::to_string)))
        .or_else(|| std::env::var("EMAIL").ok());
    let objects = repo.common_dir().join("objects");
    let odb = repo.git.odb().map_err(|e| Unread::git("the object database", &e))?;
    let mut candidates: Vec<Oid> = Vec::new();
    let mut looked_at = 0;
    for byte in 0..=255u8 {
        let dir = objects.join(format!("{byte:02x}"));
        // A file added to a directory moves its modification time.
        if !std::fs::metadata(&dir).and_then(|m| m.modified()).is_ok_and(|t| t >= started) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(rest) = name.to_str().filter(|n| n.len() == 38) else { continue };
            if !entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t >= started) {
                continue;
            }
            looked_at += 1;
            if looked_at > MAX_LOOKED_AT {
                return Ok(HashSet::new());
            }
            let Ok(oid) = Oid::from_str(&format!("{byte:02x}{rest}")) else { continue };
            if odb.read_header(oid).is_ok_and(|(_, kind)| kind == git2::ObjectType::Commit) {
                candidates.push(oid);
            }
        }
    }
    candidates.retain(|c| {
        repo.git
            .find_commit(*c)
            .is_ok_and(|commit| email.as_ref().map_or(true, |e| commit.committer().email_bytes() == e.as_bytes()))
            && start.map_or(true, |s| s != *c && !repo.git.graph_descendant_of(s, *c).unwrap_or(true))
    });
    if candidates.is_empty() {
        return Ok(HashSet::new());
    }
    // What any ref or worktree HEAD reaches is not gone: one walk from
    // every tip down to the start's history, stopped where it has seen
    // every candidate; past [`super::WALKED`] commits, none is taken.
    let mut walk = repo.git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    if let Some(s) = start {
        walk.hide(s).map_err(|e| Unread::git(&s.to_string(), &e))?;
    }
    let refs = repo.git.references().map_err(|e| Unread::git("the refs", &e))?;
    for r in refs.flatten() {
        if let Some(tip) = r.resolve().ok().and_then(|r| r.target()) {
            let _ = walk.push(tip);
        }
    }
    for head in worktree_heads(repo) {
        let _ = walk.push(head);
    }
    let mut gone: HashSet<Oid> = candidates.into_iter().collect();
    for (n, oid) in walk.enumerate() {
        if n == super::WALKED {
            return Ok(HashSet::new());
        }
        let Ok(oid) = oid else { return Ok(HashSet::new()) };
        if gone.remove(&oid) && gone.is_empty() {
            break;
        }
    }
    Ok(gone)
}

/// HEAD of this worktree and of every linked one.
fn worktree_heads(repo: &Repo) -> Vec<Oid> {
    let mut out: Vec<Oid> = repo.git.head().ok().and_then(|h| h.target()).into_iter().collect();
    if let Ok(names) = repo.git.worktrees() {
        for name in names.iter().flatten() {
            let head = repo.common_dir().join("worktrees").join(name).join("HEAD");
            let Ok(bytes) = crate::file::read(&head) else { continue };
            let text = String::from_utf8_lossy(&bytes);
            let text = text.trim();
            let id = match text.strip_prefix("ref: ") {
                Some(refname) => repo.git.refname_to_id(refname).ok(),
                None => Oid::from_str(text).ok(),
            };
            out.extend(id);
        }
    }
    out
}
