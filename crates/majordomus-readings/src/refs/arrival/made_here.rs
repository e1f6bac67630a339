//! Commits made in this repository since the start that no reflog names
//! any more: work whose every record but its objects is gone.
//!
//! A task can work in a linked worktree made for it, push its branch for
//! review, and, once the forge has merged it (squashed, with a merge
//! commit, or fast-forward) and deleted the branch, remove the worktree
//! (its HEAD reflog goes with it), delete the branch (its reflog too) and
//! `git pull --prune` (the remote-tracking ref's reflog, and the push line
//! in it, too). What arrives then on HEAD is its own work, and nothing that
//! names commits says so. The objects do: a commit made here is written as
//! a loose object file, at the time it is made. So a loose commit whose
//! file was written since the start, authored under one of this
//! repository's own addresses ([`own_addresses`]: any, where none is
//! known), is work made here since the start
//! (test/cases/435, 443), unless a peer worktree shows it its own (its
//! HEAD reflog, or the branch it has checked out). A colleague's commit a
//! fetch wrote is authored under another address. `git gc` packs loose
//! objects: what it packed is not read (a deliberate clean-up, as an
//! expired reflog is).
//!
//! Read only where a fetch brought something onto HEAD since the start
//! ([`super::arrived`]), or where a ref under git's tools' names or a
//! remote-tracking ref that is not evidence holds a commit HEAD's reflog
//! does not name (`attribution::loose_work`, test/cases/448): the common
//! check never lists the objects.

use std::collections::HashSet;
use std::time::SystemTime;

use git2::Oid;

use majordomus_records::task::TaskRecord;

use crate::{Reading, Repo, Unread};

/// At most this many loose object files written since the start are
/// read; past it the reading is unread, never "none made here" (that gave
/// a pass to the work of a removed worktree behind a commit of a few
/// thousand generated files, test/cases/535). Each file read costs about
/// a stat, an open and a header's inflate (see the README's figures), and
/// git's own `gc --auto` packs loose objects long before this many.
const MAX_LOOKED_AT: usize = 200_000;

/// The commits made here since `started` (see the module's essay),
/// reachable or not, authored under this repository's own address: a
/// task's work made in a linked worktree since removed, merged on the
/// forge with a merge commit or fast-forwarded and pulled back
/// (test/cases/443). A peer's is not: what a branch another worktree has
/// checked out reaches, or that worktree's HEAD reflog shows it made.
pub fn since(repo: &Repo, record: &TaskRecord, started: SystemTime, start: Option<Oid>) -> Reading<HashSet<Oid>> {
    let own = own_addresses(repo, record);
    let mut made: HashSet<Oid> = loose_commits_since(repo, started)?
        .into_iter()
        .filter(|c| {
            repo.git.find_commit(*c).is_ok_and(|commit| own.is_empty() || is_own(&own, &commit.author()))
                && start.map_or(true, |s| s != *c && !repo.git.graph_descendant_of(s, *c).unwrap_or(true))
        })
        .collect();
    if made.is_empty() {
        return Ok(made);
    }
    for (branch, worktree) in crate::refs::attribution::checked_out_elsewhere(repo)? {
        for c in crate::refs::attribution::made_in_worktree(repo, &worktree)? {
            made.remove(&c);
        }
        if let Ok(tip) = repo.git.refname_to_id(&format!("refs/heads/{branch}")) {
            made.retain(|c| *c != tip && !repo.git.graph_descendant_of(tip, *c).unwrap_or(true));
        }
    }
    Ok(made)
}

/// The addresses a commit made here is authored under now: the one git
/// takes (`GIT_AUTHOR_EMAIL` first) and `user.email` beside it, where the
/// environment names another for one command; `EMAIL` only where neither
/// is set. Empty where none is set.
pub fn addresses_now(repo: &Repo) -> Vec<String> {
    let mut out: Vec<String> = std::env::var("GIT_AUTHOR_EMAIL").ok().into_iter().collect();
    if let Some(configured) = repo.config().ok().and_then(|c| c.get("user.email").map(str::to_string)) {
        out.push(configured);
    }
    if out.is_empty() {
        out.extend(std::env::var("EMAIL").ok());
    }
    out.dedup();
    out
}

/// This repository's own addresses for the task `record` holds: those of
/// its start (kept in the record) and those of now. An address changed
/// since the work was committed (`git config user.email`, or
/// `GIT_AUTHOR_EMAIL` set for one check) leaves the work the task's
/// (test/cases/482). Empty where none is known at either time.
pub(crate) fn own_addresses(repo: &Repo, record: &TaskRecord) -> Vec<String> {
    let mut own = record.snapshot.own_addresses.clone().unwrap_or_default();
    for now in addresses_now(repo) {
        if !own.contains(&now) {
            own.push(now);
        }
    }
    own
}

/// Whether `author` wrote under one of the addresses `own`.
pub(crate) fn is_own(own: &[String], author: &git2::Signature<'_>) -> bool {
    own.iter().any(|a| a.as_bytes() == author.email_bytes())
}

/// Whether `commit` was written or authored under one of the addresses
/// `own`: its committer is whoever made the commit object, whatever
/// `--author` (or `GIT_AUTHOR_EMAIL`, or a patch's `From:` line under `git
/// am`) named as its author. Read where a commit taken for a colleague's
/// would put its change in force for the task (the policy file moved on:
/// `moved_on`); a colleague's commit the forge merged, squashed or rebased
/// is committed under the forge's address, and one the colleague made
/// under theirs (test/cases/650).
pub(crate) fn is_own_commit(own: &[String], commit: &git2::Commit<'_>) -> bool {
    is_own(own, &commit.author()) || is_own(own, &commit.committer())
}

/// The loose commit objects whose files were written since `started`:
/// every one, or unread past [`MAX_LOOKED_AT`] files.
fn loose_commits_since(repo: &Repo, started: SystemTime) -> Reading<Vec<Oid>> {
    loose_commits_within(repo, started, MAX_LOOKED_AT)
}

/// The loose commit objects whose files were written since `started`,
/// reading at most `limit` files. Past it some were not read, and what
/// was not read may be the commit looked for: unread, with the way out.
fn loose_commits_within(repo: &Repo, started: SystemTime, limit: usize) -> Reading<Vec<Oid>> {
    let objects = repo.common_dir().join("objects");
    let odb = repo.git.odb().map_err(|e| Unread::git("the object database", &e))?;
    let mut out = Vec::new();
    let mut looked_at = 0;
    for byte in 0..=255u8 {
        let dir = objects.join(format!("{byte:02x}"));
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
            if looked_at > limit {
                return Err(too_many(limit));
            }
            let Ok(oid) = Oid::from_str(&format!("{byte:02x}{rest}")) else { continue };
            if odb.read_header(oid).is_ok_and(|(_, kind)| kind == git2::ObjectType::Commit) {
                out.push(oid);
            }
        }
    }
    Ok(out)
}

/// Why the loose objects were not all read, and the way out: `git gc`
/// packs them, and what is packed is not read (a deliberate clean-up).
fn too_many(limit: usize) -> Unread {
    Unread::repository(format!(
        "more than {limit} loose object files were written since the start: whether a commit among them was made here (a linked worktree's, since removed) was not read; `git gc` packs them, and packed objects are not read"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn past_the_limit_the_loose_objects_are_unread_never_none() {
        let t = TestRepo::with_commit();
        let started = SystemTime::now() - std::time::Duration::from_secs(3600);
        t.write("a.txt", "a");
        t.write("b.txt", "b");
        let made = t.commit_all("two files");
        let repo = crate::open(t.path()).expect("open");
        let all = loose_commits_within(&repo, started, 100).expect("read");
        assert!(all.contains(&Oid::from_str(&made).expect("oid")), "{all:?}");
        let cut = loose_commits_within(&repo, started, 2).expect_err("more than two files");
        assert_eq!(cut.kind, crate::UnreadKind::Repository);
        assert!(cut.reason.contains("git gc"), "{}", cut.reason);
    }
}
