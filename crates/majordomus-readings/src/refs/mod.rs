//! HEAD, local branches and their upstreams, the trunk, what is not pushed
//! and whether the trunk holds HEAD's work: the readings of refs, one file
//! each (`branches.rs`, `trunk.rs`, `integration.rs`, `push.rs`), HEAD and
//! the walks over history they share here. Beside them: which
//! remote-tracking refs are evidence of a remote at all (`evidence.rs`),
//! the work this worktree left on other branches (`attribution.rs`), what
//! a fetch brought onto HEAD since the start, which is not the task's
//! (`arrival.rs`), the submodules it moved (`submodules.rs`), the work left
//! inside each submodule's own repository (`in_submodules.rs`), and the
//! branches' tips read from their files (`local.rs`).

use git2::{ErrorCode, Oid};

use crate::{Reading, Repo, Unread};

pub mod arrival;
pub mod attribution;
mod branches;
pub mod evidence;
pub mod in_submodules;
mod integration;
pub mod kept;
pub mod local;
mod push;
pub mod submodules;
mod trunk;

pub use arrival::{arrived, Arrival};
pub use attribution::{elsewhere, BranchWork, Elsewhere, Made};
pub use branches::{branches, branches_of, remotes, Branch, Upstream};
pub use evidence::{
    evidence, evidence_with, gone_by_fetch, on_this_machine, remote_refs, remotes_on_this_machine, ByName, KnownLogs,
    PushedElsewhere, RemoteEvidence, Renamed, SetAside, Start, Tracking, UpstreamsRewritten,
};
pub use integration::{integration, integration_since, Integration, SQUASH_SEARCH};
pub use push::{hidden_key, push, NoneKept, Push, Walked, Walks};
pub use trunk::{in_force, trunk, NoTrunk, Trunk, Undecided};

/// At most this many commit ids are listed in a reading's details.
pub const LISTED: usize = 50;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// `None` when HEAD is unborn.
    pub commit: Option<String>,
    /// The checked-out branch (short name); `None` when detached.
    pub branch: Option<String>,
}

pub fn head(repo: &Repo) -> Reading<Head> {
    let reference = match repo.git.find_reference("HEAD") {
        Ok(r) => r,
        Err(e) => return Err(Unread::git("HEAD", &e)),
    };
    let branch = reference.symbolic_target().and_then(|t| t.strip_prefix("refs/heads/")).map(str::to_string);
    let commit = match repo.git.head() {
        Ok(h) => h.target().map(|o| o.to_string()),
        Err(e) if e.code() == ErrorCode::UnbornBranch || e.code() == ErrorCode::NotFound => None,
        Err(e) => return Err(Unread::git("HEAD", &e)),
    };
    Ok(Head { commit, branch })
}

/// Commits reachable from `tip` and not from `base`: at most [`LISTED`] ids
/// (newest first) and the full count.
pub fn commits_not_on(repo: &Repo, tip: &str, base: Option<&str>) -> Reading<(Vec<String>, usize)> {
    let mut walk = repo.git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    if let Some(base) = base {
        walk.hide(parse(base)?).map_err(|e| Unread::git(base, &e))?;
    }
    // Pushed after the hidden commit, so the walk starts from it (see
    // `push::not_on_any`).
    walk.push(parse(tip)?).map_err(|e| Unread::git(tip, &e))?;
    collect(walk)
}

fn collect(walk: git2::Revwalk<'_>) -> Reading<(Vec<String>, usize)> {
    let mut listed = Vec::new();
    let mut count = 0;
    for oid in walk {
        let oid = oid.map_err(|e| Unread::git("the history", &e))?;
        if listed.len() < LISTED {
            listed.push(oid.to_string());
        }
        count += 1;
    }
    Ok((listed, count))
}

/// The remote a remote-tracking ref `refname` lies under
/// (`refs/remotes/NAME/...`): the longest of `remotes` it begins with, as
/// a remote's name may hold a `/` (`team/origin`).
pub fn remote_under<'a>(refname: &str, remotes: impl IntoIterator<Item = &'a String>) -> Option<&'a str> {
    let rest = refname.strip_prefix("refs/remotes/")?;
    remotes
        .into_iter()
        .filter(|r| rest.len() > r.len() + 1 && rest.starts_with(r.as_str()) && rest.as_bytes()[r.len()] == b'/')
        .max_by_key(|r| r.len())
        .map(String::as_str)
}

/// Whether `commit` exists in the repository.
pub fn has_commit(repo: &Repo, commit: &str) -> bool {
    Oid::from_str(commit).ok().and_then(|o| repo.git.find_commit(o).ok()).is_some()
}

fn parse(id: &str) -> Reading<Oid> {
    Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_remote_tracking_ref_lies_under_the_longest_remote_it_begins_with() {
        let remotes: Vec<String> = ["origin", "team", "team/origin"].map(String::from).into();
        assert_eq!(remote_under("refs/remotes/team/origin/main", &remotes), Some("team/origin"));
        assert_eq!(remote_under("refs/remotes/team/main", &remotes), Some("team"));
        assert_eq!(remote_under("refs/remotes/origin", &remotes), None, "a remote's name alone is no ref under it");
        assert_eq!(remote_under("refs/remotes/other/main", &remotes), None);
        assert_eq!(remote_under("refs/heads/origin/main", &remotes), None);
    }

    #[test]
    fn an_unborn_head_has_a_branch_and_no_commit() {
        let t = TestRepo::new();
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(head(&repo).expect("head"), Head { commit: None, branch: Some("main".into()) });
    }

    #[test]
    fn commits_not_on_a_base_are_counted() {
        let t = TestRepo::with_commit();
        let base = t.head();
        t.commit_all("one");
        let tip = t.commit_all("two");
        let repo = crate::open(t.path()).expect("open");
        let (listed, count) = commits_not_on(&repo, &tip, Some(&base)).expect("walk");
        assert_eq!(count, 2);
        assert_eq!(listed[0], tip);
    }
}
