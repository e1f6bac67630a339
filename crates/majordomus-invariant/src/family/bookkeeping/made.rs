//! What the task made, as this working tree's history shows it: the paths
//! its commits changed and the branches this worktree checked out since the
//! start. An acknowledgement (`ack.rs`) never covers any of it: it is for a
//! peer's work in a shared checkout, and git itself says this was not.
//!
//! The task's commits are those reachable from HEAD, or from any commit
//! HEAD's reflog recorded since the start (so one taken off HEAD with
//! `git reset` still counts), and from no ref the start snapshot held (the
//! start commit, the branches at the start). The reflog is read as
//! `majordomus_readings::refs::attribution` reads it (`logs/HEAD` of this
//! worktree's git directory, from the start's mark of its end); it runs nothing.
//! A reflog expired by hand forgets the commits it held: what HEAD still
//! reaches is then all that is known. Taken only when the task has
//! acknowledged something, so `check` pays for it only then.
//!
//! A branch made since the start that holds commits no ref of the start
//! and no remote holds, which no worktree that was there at the start has
//! checked out, is not another's to acknowledge either: nothing says whose
//! they are (a linked worktree made since the start and removed again
//! keeps no reflog here, test/cases/329), so it is held as the task's
//! ([`Made::unattributed`]). So is a linked worktree whose HEAD holds such
//! commits ([`Made::worktrees`]): `git worktree add --detach ../w` and a
//! commit there leave the work on no branch at all, kept only by the
//! worktree `nothing-accumulated` names (test/cases/342).

use std::collections::BTreeSet;

use majordomus_readings::{Reading, Repo, Unread};
use majordomus_records::task::TaskRecord;

/// The most commits walked; past it, the paths are not all known.
const MOST: usize = 5_000;

/// What the task made since its start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Made {
    /// Paths changed by the task's commits (against each one's first parent).
    pub paths: BTreeSet<String>,
    /// Local branches this worktree checked out since the start, and those
    /// pointing at a commit of the task.
    pub branches: BTreeSet<String>,
    /// Local branches made since the start holding commits no start ref
    /// and no counted remote holds, that no peer has checked out.
    pub unattributed: BTreeSet<String>,
    /// Linked worktrees whose HEAD holds commits no start ref and no
    /// counted remote holds.
    pub worktrees: BTreeSet<String>,
    /// The content now of each path an acknowledgement kept the content of
    /// (`ack::content_of`), filled where acknowledgements are read.
    pub content: std::collections::BTreeMap<String, String>,
}

impl Made {
    /// Why an item of a question's evidence (a path, or `branch NAME`) is
    /// the task's own work, if it is.
    pub fn owns(&self, item: &str) -> Option<&'static str> {
        if let Some(name) = item.strip_prefix("branch ") {
            if self.branches.contains(name) {
                return Some("a branch this worktree checked out since the start, or one holding a commit of the task");
            }
            if self.unattributed.contains(name) {
                return Some("a branch made since the start, holding commits no remote holds, that no worktree there at the start has checked out: nothing says they are not the task's; push them, or delete the branch");
            }
        }
        if item.strip_prefix("worktree ").is_some_and(|name| self.worktrees.contains(name)) {
            return Some("a worktree whose HEAD holds commits no remote holds: nothing says they are not the task's; push them before the worktree is removed");
        }
        self.paths.contains(item).then_some("a path the task's own commits changed")
    }
}

/// Reads what the task of `record` made in `repo`'s working tree.
pub fn read(repo: &Repo, record: &TaskRecord) -> Reading<Made> {
    record.started_at().map_err(Unread::record)?;
    let git = &repo.git;
    let mut tips = Vec::new();
    let mut made = Made::default();
    // The lines appended since the start's mark of the reflog's end, and
    // those timed since the start: a past GIT_COMMITTER_DATE does not date
    // the task's commits out of it (test/cases/306).
    let (lines, _) = majordomus_readings::refs::attribution::head_lines_since(repo, record)?;
    for line in &lines {
        if let Ok(id) = git2::Oid::from_str(&line.new) {
            tips.push(id);
        }
        if let Some((from, to)) = line.message.strip_prefix("checkout: moving from ").and_then(|m| m.split_once(" to "))
        {
            made.branches.extend([from.to_string(), to.to_string()]);
        }
    }
    // `from` in the first checkout is the branch the task started on: not made.
    if let Some(b) = &record.branch {
        made.branches.remove(b);
    }
    if let Some(head) = git.head().ok().and_then(|h| h.target()) {
        tips.push(head);
    }
    let mut walk = git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    let mut held: Vec<&str> = record.head.iter().map(String::as_str).collect();
    held.extend(record.snapshot.branches.iter().flatten().map(|(_, c)| c));
    for id in held {
        if let Ok(oid) = git2::Oid::from_str(id) {
            let _ = walk.hide(oid);
        }
    }
    // Pushed after the hidden commits, so the walk starts from them
    // (libgit2 starts from the last given, not the newest).
    for tip in tips.into_iter().filter(|t| !t.is_zero()) {
        // A commit the reflog names that is gone (pruned) is nothing to walk.
        let _ = walk.push(tip);
    }
    let mut commits = BTreeSet::new();
    for oid in walk.take(MOST + 1) {
        let oid = oid.map_err(|e| Unread::git("the history", &e))?;
        if commits.len() == MOST {
            return Err(Unread::new(
                majordomus_readings::UnreadKind::Git,
                format!("more than {MOST} commits since the start, so what the task's commits changed is not read"),
            ));
        }
        commits.insert(oid);
        changed_by(repo, oid, &mut made.paths)?;
    }
    let mut fresh: Vec<(String, git2::Oid)> = Vec::new();
    if let Ok(branches) = git.branches(Some(git2::BranchType::Local)) {
        for (branch, _) in branches.flatten() {
            let tip = branch.get().target();
            if let (Some(tip), Ok(Some(name))) = (tip, branch.name()) {
                if commits.contains(&tip) {
                    made.branches.insert(name.to_string());
                } else if record.snapshot.branches.as_ref().is_some_and(|b| !b.contains_key(name)) {
                    fresh.push((name.to_string(), tip));
                }
            }
        }
    }
    let trees: Vec<(String, git2::Oid)> = git
        .worktrees()
        .map(|names| {
            names.iter().flatten().filter_map(|n| worktree_head(repo, n).map(|t| (n.to_string(), t))).collect()
        })
        .unwrap_or_default();
    if !fresh.is_empty() || !trees.is_empty() {
        unattributed(repo, record, fresh, trees, &mut made)?;
    }
    Ok(made)
}

/// The commit linked worktree `name`'s HEAD holds, read from its file in
/// the common git directory (its directory may be gone): `None` when it
/// holds none (unborn) or cannot be read.
fn worktree_head(repo: &Repo, name: &str) -> Option<git2::Oid> {
    let bytes = majordomus_readings::file::read(&repo.common_dir().join("worktrees").join(name).join("HEAD")).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim();
    match text.strip_prefix("ref:") {
        Some(target) => repo.git.find_reference(target.trim()).ok()?.resolve().ok()?.target(),
        None => git2::Oid::from_str(text).ok(),
    }
}

/// Adds to `made.unattributed` the branches of `fresh` (made since the
/// start) that hold a commit no ref of the start and no counted remote
/// holds, and that no peer has checked out; to `made.worktrees` the linked
/// worktrees of `trees` whose HEAD holds one.
fn unattributed(
    repo: &Repo,
    record: &TaskRecord,
    fresh: Vec<(String, git2::Oid)>,
    trees: Vec<(String, git2::Oid)>,
    made: &mut Made,
) -> Reading<()> {
    use majordomus_readings::refs;
    let peers = refs::attribution::peer_branches(repo, record)?;
    // A record without the remotes at the start hides no remote's commits:
    // read strictly.
    let mut hidden =
        refs::evidence(repo, refs::Start::Snapshot(&record.snapshot)).map(|e| e.tips()).unwrap_or_default();
    hidden.extend(
        record
            .head
            .as_deref()
            .into_iter()
            .chain(record.snapshot.branches.iter().flat_map(|b| b.values()))
            .filter_map(|c| git2::Oid::from_str(c).ok()),
    );
    let holds_unheld = |name: &str, tip: git2::Oid| -> Reading<bool> {
        let mut walk = repo.git.revwalk().map_err(|e| Unread::git("the history", &e))?;
        for h in &hidden {
            let _ = walk.hide(*h);
        }
        walk.push(tip).map_err(|e| Unread::git(name, &e))?;
        Ok(walk.next().is_some())
    };
    for (name, tip) in fresh.into_iter().filter(|(name, _)| !peers.contains(name)) {
        if holds_unheld(&name, tip)? {
            made.unattributed.insert(name);
        }
    }
    for (name, tip) in trees {
        if holds_unheld(&format!("the worktree {name}"), tip)? {
            made.worktrees.insert(name);
        }
    }
    Ok(())
}

/// Adds the paths commit `oid` changed against its first parent (against
/// nothing, for a root commit).
fn changed_by(repo: &Repo, oid: git2::Oid, paths: &mut BTreeSet<String>) -> Reading<()> {
    let what = || format!("the commit {oid}");
    let commit = repo.git.find_commit(oid).map_err(|e| Unread::git(&what(), &e))?;
    let tree = commit.tree().map_err(|e| Unread::git(&what(), &e))?;
    let parent = commit.parent(0).ok().and_then(|p| p.tree().ok());
    let changed = majordomus_readings::trees::changed_paths(&repo.git, parent.as_ref(), Some(&tree))
        .map_err(|e| Unread::git(&what(), &e))?;
    paths.extend(changed.iter().filter_map(|p| p.to_str().map(str::to_string)));
    Ok(())
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    use super::*;

    fn started(t: &TestRepo) -> TaskRecord {
        let mut r = majordomus_testkit::task_record();
        r.head = Some(t.head());
        r.started_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        r.snapshot.branches = Some([("main".to_string(), t.head())].into());
        r
    }

    #[test]
    fn a_commit_undone_with_reset_and_a_branch_checked_out_are_still_the_tasks() {
        let t = TestRepo::with_commit();
        t.write("peer.txt", "a peer's file\n");
        t.commit_all("before the start");
        let record = started(&t);
        t.write("src/lib.rs", "fn a() {}\n");
        t.commit_all("the task's work");
        t.git(&["reset", "-q", "--soft", "HEAD~1"]);
        t.git(&["checkout", "-q", "-b", "mine"]);
        t.git(&["checkout", "-q", "main"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let made = read(&repo, &record).expect("read");
        assert_eq!(made.paths.iter().collect::<Vec<_>>(), ["src/lib.rs"]);
        assert!(made.owns("src/lib.rs").is_some() && made.owns("peer.txt").is_none());
        assert!(made.owns("branch mine").is_some(), "{made:?}");
        assert!(made.owns("branch main").is_none(), "the branch the task started on is not made by it: {made:?}");
    }

    #[test]
    fn a_branch_a_peer_made_and_this_worktree_never_checked_out_is_not_the_tasks() {
        let t = TestRepo::with_commit();
        let record = started(&t);
        t.git(&["branch", "peer"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let made = read(&repo, &record).expect("read");
        assert_eq!(made, Made::default());
    }

    #[test]
    fn a_branch_made_since_holding_a_commit_made_outside_this_worktrees_head_is_held_as_the_tasks() {
        let t = TestRepo::with_commit();
        let record = started(&t);
        let tree = t.git(&["rev-parse", "HEAD^{tree}"]);
        let commit = t.git(&["commit-tree", "-p", "HEAD", "-m", "elsewhere", tree.trim()]);
        t.git(&["branch", "x", commit.trim()]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let made = read(&repo, &record).expect("read");
        assert!(made.owns("branch x").is_some(), "{made:?}");
        assert!(made.branches.is_empty(), "{made:?}");
    }
}
