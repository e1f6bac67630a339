//! What a fetch brought, over real repositories: a colleague's commit
//! pulled, the task's own rebased onto it, the task's work fetched back,
//! and a ref moved by hand.

use majordomus_records::task::{Snapshot, TaskRecord};
use majordomus_testkit::{task_record, TempDir, TestRepo};

use super::*;
use crate::refs::evidence::{at_start_now, evidence, Start};

fn start(t: &TestRepo) -> TaskRecord {
    let repo = crate::open(t.path()).expect("open");
    let (remotes, remote_refs) = at_start_now(&repo).expect("remotes");
    TaskRecord {
        started_at: chrono::Utc::now().to_rfc3339(),
        head: Some(t.head()),
        snapshot: Snapshot {
            remotes: Some(remotes),
            remote_refs: Some(remote_refs.into()),
            trunk: Some("refs/remotes/origin/main".into()),
            ..Snapshot::default()
        },
        ..task_record()
    }
}

fn read(t: &TestRepo, record: &TaskRecord) -> Option<Arrival> {
    let repo = crate::open(t.path()).expect("open");
    let head = crate::refs::head(&repo).expect("head").commit;
    let evidence = evidence(&repo, Start::Snapshot(&record.snapshot)).expect("evidence");
    arrived(&repo, record, head.as_deref(), &evidence).expect("read")
}

/// A repository with origin, and a colleague's clone of origin.
fn with_colleague() -> (TestRepo, TempDir, TempDir) {
    let t = TestRepo::with_commit();
    let origin = t.with_origin();
    let colleague = tempfile::Builder::new().prefix("majordomus-colleague-").tempdir().expect("tempdir");
    t.git(&["clone", "-q", origin.path().to_str().expect("utf-8"), colleague.path().to_str().expect("utf-8")]);
    (t, origin, colleague)
}

/// The colleague commits `path` and pushes to origin's main.
fn colleague_pushes(t: &TestRepo, colleague: &TempDir, path: &str) -> String {
    let dir = colleague.path();
    t.git_in(dir, &["pull", "-q", "--rebase"]);
    std::fs::create_dir_all(dir.join(path).parent().expect("parent")).expect("mkdir");
    std::fs::write(dir.join(path), "the colleague's\n").expect("write");
    t.git_in(dir, &["add", "-A"]);
    t.git_in(dir, &["commit", "-q", "-m", "the colleague's"]);
    t.git_in(dir, &["push", "-q", "origin", "main"]);
    t.git_in(dir, &["rev-parse", "HEAD"]).trim().to_string()
}

#[test]
fn nothing_fetched_since_the_start_sets_nothing_apart() {
    let (t, _origin, _colleague) = with_colleague();
    let record = start(&t);
    t.write("src/a.rs", "mine\n");
    t.commit_all("mine");
    t.git(&["push", "-q", "origin", "main"]);
    assert_eq!(read(&t, &record), None);
}

#[test]
fn a_colleagues_commit_pulled_is_not_the_tasks_and_the_tasks_own_are() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    let theirs = colleague_pushes(&t, &colleague, "docs/x.md");
    t.git(&["pull", "-q", "--ff-only"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.commits.clone(), found.count, found.own_count), (vec![theirs.clone()], 1, 0));
    assert_eq!(found.tips, [theirs]);
    assert!(found.touched.is_empty() && !found.holds_own);

    t.write("src/a.rs", "mine\n");
    t.commit_all("mine");
    colleague_pushes(&t, &colleague, "docs/y.md");
    t.git(&["pull", "-q", "--rebase"]);
    t.git(&["push", "-q", "origin", "main"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.count, found.own_count), (2, 1));
    assert_eq!(found.tips.len(), 1, "the newest of the colleague's, under the task's rebased commit");
    assert_eq!(found.touched.iter().map(ToString::to_string).collect::<Vec<_>>(), ["src/a.rs"]);
    assert!(found.holds_own);
}

#[test]
fn a_merge_is_the_tasks_only_where_it_differs_from_every_parent() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    t.write("src/a.rs", "mine\n");
    t.commit_all("mine");
    colleague_pushes(&t, &colleague, "docs/x.md");
    t.git(&["pull", "-q", "--no-rebase", "--no-edit"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.count, found.own_count), (1, 2));
    assert_eq!(found.touched.iter().map(ToString::to_string).collect::<Vec<_>>(), ["src/a.rs"]);
}

#[test]
fn the_tasks_own_commit_pushed_and_fetched_back_merged_is_the_tasks() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    t.git(&["checkout", "-q", "-b", "feature"]);
    t.write("docs/mine.md", "mine\n");
    let mine = t.commit_all("mine");
    t.git(&["push", "-q", "origin", "feature"]);
    t.git(&["checkout", "-q", "main"]);
    // Merged on the remote by the colleague, with a commit of their own.
    let dir = colleague.path();
    t.git_in(dir, &["fetch", "-q", "origin", "feature"]);
    t.git_in(dir, &["merge", "-q", "--no-ff", "--no-edit", "FETCH_HEAD"]);
    t.git_in(dir, &["push", "-q", "origin", "main"]);
    t.git(&["pull", "-q", "--ff-only"]);
    let found = read(&t, &record).expect("the merge arrived");
    assert_eq!((found.count, found.own_count), (1, 1));
    assert_eq!(found.own, [mine]);
    assert_eq!(found.touched.iter().map(ToString::to_string).collect::<Vec<_>>(), ["docs/mine.md"]);
    // The merge holds the task's work: nothing is told from it.
    assert!(found.tips.is_empty());
}

#[test]
fn a_remote_tracking_ref_moved_by_hand_brings_nothing() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    let theirs = colleague_pushes(&t, &colleague, "docs/x.md");
    t.git(&["fetch", "-q", colleague.path().to_str().expect("utf-8"), "main"]);
    t.git(&["update-ref", "refs/remotes/origin/main", &theirs]);
    t.git(&["merge", "-q", "--ff-only", &theirs]);
    assert_eq!(read(&t, &record), None);
}

#[test]
fn a_rebase_that_replays_nothing_makes_nothing() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    colleague_pushes(&t, &colleague, "docs/x.md");
    t.git(&["fetch", "-q"]);
    t.git(&["rebase", "-q", "origin/main"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.count, found.own_count), (1, 0));
}

#[test]
fn the_tasks_branch_squash_merged_on_the_remote_and_pulled_is_the_tasks_work() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    t.git(&["checkout", "-q", "-b", "feature"]);
    t.write("src/mine.rs", "mine\n");
    t.commit_all("mine");
    t.git(&["push", "-q", "origin", "feature"]);
    t.git(&["checkout", "-q", "main"]);
    let dir = colleague.path();
    t.git_in(dir, &["fetch", "-q", "origin", "feature"]);
    t.git_in(dir, &["merge", "-q", "--squash", "FETCH_HEAD"]);
    t.git_in(dir, &["commit", "-q", "-m", "squashed"]);
    t.git_in(dir, &["push", "-q", "origin", "main"]);
    t.git(&["branch", "-q", "-D", "feature"]);
    t.git(&["pull", "-q", "--ff-only"]);
    let found = read(&t, &record).expect("the squash arrived");
    assert_eq!((found.count, found.own_count, found.made_elsewhere), (1, 0, 1));
    assert_eq!(found.touched.iter().map(ToString::to_string).collect::<Vec<_>>(), ["src/mine.rs"]);
    assert!(found.holds_own);
    assert!(found.tips.is_empty(), "a squash may hold the task's work");
}

#[test]
fn a_commit_the_task_threw_away_is_no_work_a_fetch_brought_back() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    t.write("docs/x.md", "mine\n");
    t.commit_all("mine");
    colleague_pushes(&t, &colleague, "docs/x.md");
    t.git(&["fetch", "-q"]);
    t.git(&["reset", "-q", "--hard", "origin/main"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.count, found.own_count, found.made_elsewhere), (1, 0, 0));
    // Its path is the task's all the same: what it touched never escapes.
    assert_eq!(found.touched.iter().map(ToString::to_string).collect::<Vec<_>>(), ["docs/x.md"]);
}

#[test]
fn a_ref_moved_by_hand_after_a_fetch_leaves_what_the_fetch_brought_arrived() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    colleague_pushes(&t, &colleague, "docs/x.md");
    let theirs = colleague_pushes(&t, &colleague, "docs/y.md");
    t.git(&["pull", "-q", "--ff-only"]);
    t.git(&["update-ref", "refs/remotes/origin/main", "HEAD^"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.count, found.own_count), (2, 0));
    assert_eq!(found.tips, [theirs]);
}

#[test]
fn a_commit_a_remote_tracking_ref_held_at_the_start_is_anothers_however_it_reaches_head() {
    let (t, _origin, colleague) = with_colleague();
    let theirs = colleague_pushes(&t, &colleague, "tests/c.rs");
    // Fetched before the start: no line since says a fetch brought it.
    t.git(&["fetch", "-q"]);
    let record = start(&t);
    t.write("src/a.rs", "mine\n");
    t.commit_all("mine");
    t.git(&["rebase", "-q", "origin/main"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.commits.clone(), found.own_count), (vec![theirs.clone()], 1));
    assert_eq!(found.touched.iter().map(ToString::to_string).collect::<Vec<_>>(), ["src/a.rs"]);
    assert_eq!(found.tips, [theirs], "the task's rebased commit is on top of it, not in it");

    // A later fetch moved the ref on from it: still another's.
    let newer = colleague_pushes(&t, &colleague, "docs/y.md");
    t.git(&["pull", "-q", "--rebase"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.count, found.own_count), (2, 1));
    assert_eq!(found.tips, [newer]);
}

#[test]
fn a_cherry_pick_of_a_colleagues_commit_is_theirs_where_it_holds_what_theirs_does() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    t.write("src/a.rs", "mine\n");
    t.commit_all("mine");
    colleague_pushes(&t, &colleague, "tests/c.rs");
    t.git(&["fetch", "-q"]);
    t.git(&["cherry-pick", "origin/main"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!((found.count, found.own_count), (1, 1), "the pick is the colleague's commit, copied");
    assert_eq!(found.touched.iter().map(ToString::to_string).collect::<Vec<_>>(), ["src/a.rs"]);

    // Amended with a test of the task's own: the pick holds the task's
    // work, and nothing else arrived to set apart.
    t.write("tests/c.rs", "the task's\n");
    t.git(&["commit", "-q", "-a", "--amend", "--no-edit"]);
    assert_eq!(read(&t, &record), None);
}

/// The colleague's clone changes the policy file, under `author`, and pushes.
fn pushes_policy(t: &TestRepo, clone: &TempDir, author: &str, text: &str) -> String {
    let dir = clone.path();
    t.git_in(dir, &["pull", "-q", "--rebase"]);
    std::fs::create_dir_all(dir.join(".ai/repo")).expect("mkdir");
    std::fs::write(dir.join(".ai/repo/majordomus.toml"), text).expect("write");
    t.git_in(dir, &["add", "-A"]);
    commit_as(t, dir, author, author, "the policy");
    t.git_in(dir, &["push", "-q", "origin", "main"]);
    t.git_in(dir, &["rev-parse", "HEAD"]).trim().to_string()
}

/// Commits what is staged in `dir` as `author`, committed by `committer`
/// (`Name <address>` each).
fn commit_as(t: &TestRepo, dir: &std::path::Path, author: &str, committer: &str, message: &str) {
    let (name, rest) = committer.split_once(" <").expect("Name <address>");
    let out = t
        .git_command(dir)
        .env("GIT_COMMITTER_NAME", name)
        .env("GIT_COMMITTER_EMAIL", rest.trim_end_matches('>'))
        .args(["commit", "-q", "--author", author, "-m", message])
        .output()
        .expect("git commit");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn others(t: &TestRepo, record: &TaskRecord) -> Option<String> {
    let repo = crate::open(t.path()).expect("open");
    let head = crate::refs::head(&repo).expect("head").commit.expect("a commit");
    let evidence = evidence(&repo, Start::Snapshot(&record.snapshot)).expect("evidence");
    others_version(&repo, record, &head, &evidence, ".ai/repo/majordomus.toml").expect("read").map(|o| o.to_string())
}

#[test]
fn a_file_only_a_colleague_changed_is_theirs_and_one_the_task_changed_or_wrote_under_its_address_is_not() {
    let (t, _origin, colleague) = with_colleague();
    t.git(&["config", "user.email", "author@example.com"]);
    let record = start(&t);
    let theirs = pushes_policy(&t, &colleague, "Colleague <c@example.com>", "[caps]\npushed = 5\n");
    t.git(&["pull", "-q", "--ff-only"]);
    assert_eq!(others(&t, &record), Some(theirs), "the colleague's change, pulled");
    t.write("src/a.rs", "mine\n");
    t.commit_all("mine");
    assert!(others(&t, &record).is_some(), "the task's commit elsewhere leaves it the colleague's");

    // Under this repository's own address, made in another clone: the task's.
    pushes_policy(&t, &colleague, "Test Author <author@example.com>", "[caps]\npushed = 9\n");
    t.git(&["pull", "-q", "--rebase"]);
    assert_eq!(others(&t, &record), None);

    // Another author named with `--author` in another clone, committed
    // under this repository's own address: the task's.
    let (t, _origin, colleague) = with_colleague();
    t.git(&["config", "user.email", "author@example.com"]);
    let record = start(&t);
    let dir = colleague.path();
    t.git_in(dir, &["pull", "-q", "--rebase"]);
    std::fs::create_dir_all(dir.join(".ai/repo")).expect("mkdir");
    std::fs::write(dir.join(".ai/repo/majordomus.toml"), "[caps]\npushed = 9\n").expect("write");
    t.git_in(dir, &["add", "-A"]);
    commit_as(&t, dir, "Colleague <c@example.com>", "Test Author <author@example.com>", "relax");
    t.git_in(dir, &["push", "-q", "origin", "main"]);
    t.git(&["pull", "-q", "--ff-only"]);
    assert_eq!(others(&t, &record), None, "committed under the task's address");

    // The task's own commit to it, on top of the colleague's: the task's.
    let (t, _origin, colleague) = with_colleague();
    t.git(&["config", "user.email", "author@example.com"]);
    let record = start(&t);
    pushes_policy(&t, &colleague, "Colleague <c@example.com>", "[caps]\npushed = 5\n");
    t.git(&["pull", "-q", "--ff-only"]);
    t.write(".ai/repo/majordomus.toml", "[caps]\npushed = 9\n");
    t.commit_all("mine");
    assert_eq!(others(&t, &record), None);
}

/// The colleague loosens the policy on a side branch, `relax-ci`, pushed.
fn relaxes_on_a_side_branch(t: &TestRepo, colleague: &TempDir) {
    t.git_in(colleague.path(), &["checkout", "-q", "-b", "relax-ci"]);
    std::fs::create_dir_all(colleague.path().join(".ai/repo")).expect("mkdir");
    std::fs::write(colleague.path().join(".ai/repo/majordomus.toml"), "[caps]\npushed = 9\n").expect("write");
    t.git_in(colleague.path(), &["add", "-A"]);
    commit_as(t, colleague.path(), "Colleague <c@example.com>", "Colleague <c@example.com>", "relax");
    t.git_in(colleague.path(), &["push", "-q", "origin", "relax-ci"]);
}

#[test]
fn a_colleagues_change_on_a_side_branch_the_task_merged_is_not_the_trunks() {
    // Held at the start, fast-forwarded onto and pushed to the trunk.
    let (t, _origin, colleague) = with_colleague();
    t.git(&["config", "user.email", "author@example.com"]);
    relaxes_on_a_side_branch(&t, &colleague);
    t.git(&["fetch", "-q", "origin"]);
    let record = start(&t);
    t.git(&["merge", "-q", "--ff-only", "origin/relax-ci"]);
    t.git(&["push", "-q", "origin", "main"]);
    assert_eq!(others(&t, &record), None, "a side branch held at the start");

    // Fetched since, merged with a merge commit, pushed, fetched again.
    let (t, _origin, colleague) = with_colleague();
    t.git(&["config", "user.email", "author@example.com"]);
    let record = start(&t);
    relaxes_on_a_side_branch(&t, &colleague);
    t.git(&["fetch", "-q", "origin"]);
    t.git(&["merge", "-q", "--no-ff", "--no-edit", "origin/relax-ci"]);
    t.git(&["push", "-q", "origin", "main"]);
    t.git(&["fetch", "-q", "origin"]);
    assert_eq!(others(&t, &record), None, "a side branch fetched since");
}

#[test]
fn a_path_where_head_holds_what_a_colleagues_pulled_commit_holds_is_not_the_tasks_work() {
    let (t, _origin, colleague) = with_colleague();
    let record = start(&t);
    // The task's edit and its revert; the colleague's edit of the same file.
    t.write("src/a.rs", "mine\n");
    t.commit_all("mine");
    t.git(&["revert", "--no-edit", "HEAD"]);
    colleague_pushes(&t, &colleague, "src/a.rs");
    t.git(&["pull", "-q", "--no-rebase", "--no-edit"]);
    let found = read(&t, &record).expect("arrived");
    assert_eq!(found.tips.len(), 1);
    assert!(found.touched.contains(&RepoPath::from("src/a.rs")));
    assert!(!found.holds_own, "HEAD holds the colleague's src/a.rs: not the task's work");
    // Its own edit over theirs is its work.
    t.write("src/a.rs", "the colleague's\nmine\n");
    t.commit_all("mine again");
    assert!(read(&t, &record).expect("arrived").holds_own);
}
