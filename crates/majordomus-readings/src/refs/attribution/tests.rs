//! Work on other branches, attributed over real repositories: a branch
//! that existed at the start and moved, a branch made here (HEAD's
//! reflog), a reflog expired, a peer worktree's branch, pushed work.

use majordomus_records::task::{Snapshot, TaskRecord, TASK_SCHEMA};
use majordomus_testkit::{TempDir, TestRepo};

use super::*;
use crate::refs::evidence::{at_start_now, evidence, Start};

/// The record `start` would write now: the branches, worktrees and
/// remotes as they are, the start commit and time.
fn start(t: &TestRepo) -> TaskRecord {
    let repo = crate::open(t.path()).expect("open");
    let (remotes, remote_refs) = at_start_now(&repo).expect("remotes");
    let branches = crate::refs::branches(&repo).expect("branches");
    TaskRecord {
        schema: TASK_SCHEMA.into(),
        id: "t".into(),
        task: "work".into(),
        scope: vec![],
        scope_added: vec![],
        issues: vec![],
        started_at: chrono::Utc::now().to_rfc3339(),
        head: Some(t.head()),
        branch: Some("main".into()),
        snapshot: Snapshot {
            branches: Some(branches.into_iter().map(|b| (b.name, b.commit)).collect()),
            worktrees: Some(crate::worktrees::read(&repo).expect("worktrees").into()),
            remotes: Some(remotes),
            remote_refs: Some(remote_refs.into()),
            ..Snapshot::default()
        },
        owner: None,
    }
}

fn read_in(dir: &std::path::Path, record: &TaskRecord) -> Elsewhere {
    let repo = crate::open(dir).expect("open");
    let head = crate::refs::head(&repo).expect("head");
    let branches = crate::refs::branches(&repo).expect("branches");
    let evidence = evidence(&repo, Start::Snapshot(&record.snapshot)).expect("evidence");
    elsewhere(&repo, &head, &branches, &evidence, record).expect("read")
}

fn read(t: &TestRepo, record: &TaskRecord) -> Elsewhere {
    read_in(t.path(), record)
}

/// `main` pushed to origin and a `topic` branch pushed too.
fn with_topic() -> (TestRepo, TempDir) {
    let t = TestRepo::with_commit();
    let origin = t.with_origin();
    t.git(&["branch", "topic"]);
    t.git(&["push", "-q", "origin", "topic"]);
    (t, origin)
}

#[test]
fn a_commit_on_a_start_branch_left_behind_is_this_tasks_even_with_the_reflog_expired() {
    let (t, _origin) = with_topic();
    let record = start(&t);
    t.git(&["checkout", "-q", "topic"]);
    t.write("a.txt", "a\n");
    let made = t.commit_all("topic work");
    t.git(&["checkout", "-q", "main"]);
    let want =
        vec![BranchWork { branch: "topic".into(), commits: vec![made.clone()], count: 1, made: Made::BranchMoved }];
    assert_eq!(read(&t, &record).branches, want);
    t.git(&["reflog", "expire", "--expire=now", "--all"]);
    assert_eq!(read(&t, &record).branches, want);
    // Pushed, it is nobody's concern.
    t.git(&["push", "-q", "origin", "topic"]);
    assert_eq!(read(&t, &record), Elsewhere::default());
}

#[test]
fn a_branch_made_here_since_the_start_is_this_tasks_by_heads_reflog() {
    let (t, _origin) = with_topic();
    let record = start(&t);
    t.git(&["checkout", "-q", "-b", "mine"]);
    t.write("a.txt", "a\n");
    let made = t.commit_all("mine");
    t.git(&["checkout", "-q", "main"]);
    let found = read(&t, &record);
    assert_eq!(found.branches.len(), 1);
    assert_eq!((found.branches[0].branch.as_str(), found.branches[0].made), ("mine", Made::HeadReflog));
    assert_eq!(found.branches[0].commits, [made]);
    // With HEAD's reflog expired, nothing says this worktree made it: named, not counted.
    t.git(&["reflog", "expire", "--expire=now", "--all"]);
    let found = read(&t, &record);
    assert_eq!((found.branches, found.not_attributed), (vec![], vec!["mine".to_string()]));
}

#[test]
fn a_start_branch_a_peer_worktree_commits_on_is_the_peers() {
    let (t, _origin) = with_topic();
    let peer = t.path().with_file_name(format!("{}-peer", t.path().file_name().expect("name").to_string_lossy()));
    t.git(&["worktree", "add", "-q", peer.to_str().expect("utf-8"), "topic"]);
    let record = start(&t);
    t.git_in(&peer, &["commit", "-q", "--allow-empty", "-m", "the peer's work"]);
    let found = read(&t, &record);
    assert_eq!((found.branches, found.not_attributed), (vec![], vec!["topic".to_string()]));
    // A worktree this task made is no peer.
    std::fs::remove_dir_all(&peer).expect("cleanup");
    t.git(&["worktree", "prune"]);
    let mine = t.path().with_file_name(format!("{}-mine", t.path().file_name().expect("name").to_string_lossy()));
    t.git(&["worktree", "add", "-q", mine.to_str().expect("utf-8"), "topic"]);
    assert_eq!(read(&t, &record).branches.len(), 1);
    std::fs::remove_dir_all(&mine).expect("cleanup");
}

#[test]
fn commits_already_on_a_branch_at_the_start_are_inherited() {
    let (t, _origin) = with_topic();
    t.git(&["checkout", "-q", "-b", "old"]);
    t.write("old.txt", "old\n");
    t.commit_all("unpushed before the start");
    t.git(&["checkout", "-q", "main"]);
    let record = start(&t);
    // Moved onto what another start branch already held: nothing new.
    t.git(&["branch", "-f", "topic", "old"]);
    assert_eq!(read(&t, &record), Elsewhere::default());
}

#[test]
fn tags_hold_their_commits_lightweight_or_annotated_loose_or_packed() {
    let t = TestRepo::with_commit();
    let old = Oid::from_str(&t.head()).expect("id");
    t.write("new.txt", "new");
    let new = Oid::from_str(&t.commit_all("new")).expect("id");
    t.git(&["tag", "light-new", &new.to_string()]);
    t.git(&["tag", "-a", "-m", "annotated", "annotated-new", &new.to_string()]);
    t.git(&["tag", "light-old", &old.to_string()]);
    t.git(&["tag", "-a", "-m", "annotated", "annotated-old", &old.to_string()]);
    let repo = crate::open(t.path()).expect("open");
    let expected = vec![("annotated-new".to_string(), new), ("light-new".to_string(), new)];
    assert_eq!(tags_holding(&repo, |c| *c == new).expect("loose"), expected);
    t.git(&["pack-refs", "--all"]);
    assert_eq!(tags_holding(&repo, |c| *c == new).expect("packed"), expected);
}
