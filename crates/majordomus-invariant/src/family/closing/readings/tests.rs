//! The closing readings over real repositories, judged by `done`.

use majordomus_records::task::TaskRecord;
use majordomus_testkit::TestRepo;

use super::*;
use crate::answer::{Answer, Status};

/// A task started now in `t`, with the start snapshot `start` takes.
fn start(t: &TestRepo) -> TaskRecord {
    let repo = majordomus_readings::open(t.path()).expect("open");
    let head = refs::head(&repo).expect("head");
    TaskRecord {
        started_at: Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        head: head.commit,
        branch: head.branch,
        snapshot: crate::snapshot::snapshot(&repo, &Policy::default()).snapshot,
        ..majordomus_testkit::task_record()
    }
}

fn check(t: &TestRepo, task: &TaskRecord, id: &str) -> Answer {
    let repo = majordomus_readings::open(t.path()).expect("open");
    let paths = StatePaths::new(repo.root());
    let builtin = crate::question::builtin_ids();
    let policy = Policy::load(&paths.policy(), &builtin).expect("policy");
    let readings = crate::measure::measure(&repo, &paths, &policy, TaskState::Active(Box::new(task.clone())));
    crate::done::answer_all(&readings, &policy).into_iter().find(|a| a.id == id).expect("answered")
}

fn sibling(t: &TestRepo, suffix: &str) -> std::path::PathBuf {
    t.path()
        .parent()
        .expect("parent")
        .join(format!("{}-{suffix}", t.path().file_name().expect("name").to_string_lossy()))
}

const LINT: &str = ".ai/repo/lint-baseline.txt";

#[test]
fn an_entry_added_is_counted_at_the_start_and_now_committed_or_not_and_taking_it_out_answers() {
    let t = TestRepo::with_commit();
    t.write(LINT, "# allowed for now\nsrc/a.rs: unwrap\nsrc/b.rs: expect\n");
    t.commit_all("baseline");
    let task = start(&t);
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Pass);

    t.write(LINT, "# allowed for now\nsrc/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: panic\n");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "uncommitted: {}", a.evidence);
    assert!(
        a.evidence.contains(".ai/repo/lint-baseline.txt (2 entries then, 3 now; added `src/c.rs: panic`)"),
        "{}",
        a.evidence
    );
    t.commit_all("permit a panic");
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Refused, "committed");

    // Taken out of the file, it is still in HEAD's commit until that is
    // committed too (test/cases/461).
    t.write(LINT, "# allowed for now\nsrc/a.rs: unwrap\nsrc/b.rs: expect\n");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("HEAD's commit holds `src/c.rs: panic`"), "{}", a.evidence);
    t.commit_all("the panic taken out");
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Pass, "taken out again");
}

#[test]
fn an_entry_swapped_for_another_is_caught_though_the_count_is_unchanged() {
    let t = TestRepo::with_commit();
    t.write(LINT, "one\ntwo\n");
    t.commit_all("baseline");
    let task = start(&t);
    t.write(LINT, "one\nthree\n");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Refused);
    assert!(a.evidence.contains("2 entries then, 2 now; added `three`"), "{}", a.evidence);
}

#[test]
fn a_baseline_renamed_since_the_start_is_compared_with_its_former_self() {
    let t = TestRepo::with_commit();
    t.write(LINT, "src/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: todo\nsrc/d.rs: dead\n");
    t.commit_all("baseline");
    let task = start(&t);
    std::fs::create_dir_all(t.path().join(".ai/repo/rust")).expect("mkdir");
    t.git(&["mv", LINT, ".ai/repo/rust/clippy-baseline.txt"]);
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Pass, "a move alone adds nothing");
    t.write(
        ".ai/repo/rust/clippy-baseline.txt",
        "src/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: todo\nsrc/d.rs: dead\nsrc/e.rs: new\n",
    );
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence.contains("moved from .ai/repo/lint-baseline.txt; 4 entries then, 5 now; added `src/e.rs: new`"),
        "{}",
        a.evidence
    );
    t.commit_all("moved");
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Refused, "committed");
}

#[test]
fn a_baseline_that_appears_since_the_start_is_named_not_growth() {
    let t = TestRepo::with_commit();
    t.write(LINT, "one\n");
    t.commit_all("baseline");
    let task = start(&t);
    t.write(".ai/repo/audit/deps-baseline.txt", "left-pad 0.0.1\n");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(a.evidence.contains(".ai/repo/audit/deps-baseline.txt (1 entry)"), "{}", a.evidence);
}

#[test]
fn without_a_snapshot_the_start_commit_is_read_and_a_missing_one_is_unknown() {
    let t = TestRepo::with_commit();
    t.write(LINT, "one\n");
    t.commit_all("baseline");
    let mut task = start(&t);
    task.snapshot.baseline_bytes = None;
    t.write(LINT, "one\ntwo\n");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Refused);
    assert!(a.evidence.contains("read from the start commit"), "{}", a.evidence);
    task.head = Some("0123456789abcdef0123456789abcdef01234567".into());
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("is not in this repository"), "{}", a.evidence);
    assert_eq!(check(&t, &task, "nothing-accumulated").status, Status::Pass, "the others are still measured");
}

#[test]
fn an_edit_uncommitted_at_the_start_is_inherited() {
    let t = TestRepo::with_commit();
    t.write(LINT, "one\n");
    t.commit_all("baseline");
    t.write(LINT, "one\nalready-there\n");
    let task = start(&t);
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Pass);
}

#[test]
fn no_baseline_at_the_start_or_now_is_exempt() {
    let t = TestRepo::with_commit();
    let task = start(&t);
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Exempt);
}

#[test]
fn a_branch_and_a_worktree_made_since_the_start_are_owed_until_both_are_gone() {
    let t = TestRepo::with_commit();
    t.git(&["branch", "before"]);
    let task = start(&t);
    assert_eq!(check(&t, &task, "nothing-accumulated").status, Status::Pass);
    t.git(&["branch", "side"]);
    let wt = sibling(&t, "wt");
    t.git(&["worktree", "add", "-q", "-b", "wt-branch", wt.to_str().expect("utf8")]);
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed);
    let name = wt.file_name().expect("name").to_string_lossy().into_owned();
    assert!(a.evidence.contains(&format!("worktree {name} at ")), "{}", a.evidence);
    assert!(a.evidence.contains("branch side, branch wt-branch."), "{}", a.evidence);
    assert!(a.evidence.contains("4 local branches and 1 linked worktree now"), "{}", a.evidence);
    assert!(!a.evidence.contains("before"), "a branch there at the start is not counted: {}", a.evidence);

    t.git(&["worktree", "remove", wt.to_str().expect("utf8")]);
    t.git(&["branch", "-D", "side", "wt-branch"]);
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
}

#[test]
fn without_a_snapshot_a_branch_is_dated_by_the_first_line_of_its_reflog() {
    let t = TestRepo::with_commit();
    let mut task = start(&t);
    t.git(&["switch", "-q", "-c", "topic"]);
    task.snapshot.branches = None;
    task.snapshot.worktrees = None;
    // The start is an hour ago: topic's reflog begins now, after it (and
    // main's too, but the trunk's branch is never counted).
    task.started_at = (Utc::now() - chrono::Duration::hours(1)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("branch topic (checked out here)"), "{}", a.evidence);
    assert!(!a.evidence.contains("branch main"), "{}", a.evidence);
    // Its reflog gone, the branch cannot be dated: unknown, never a pass.
    std::fs::remove_file(t.path().join(".git/logs/refs/heads/topic")).expect("remove reflog");
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Unknown, "{}", a.evidence);
    assert!(a.evidence.contains("branch topic (it has no reflog)"), "{}", a.evidence);
}

#[test]
fn only_the_reflogs_of_branches_that_moved_since_the_start_are_read() {
    let t = TestRepo::with_commit();
    t.git(&["branch", "still"]);
    t.git(&["branch", "moves"]);
    let task = start(&t);
    // A reflog that cannot be read (a directory where the file is): read,
    // it would leave the question unknown.
    let unreadable = |branch: &str| {
        let log = t.path().join(".git/logs/refs/heads").join(branch);
        std::fs::remove_file(&log).expect("remove reflog");
        std::fs::create_dir(&log).expect("a directory in its place");
    };
    unreadable("still");
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "a branch at its start commit is not dated: {}", a.evidence);
    t.commit_all("on main");
    t.git(&["branch", "-f", "moves", "HEAD"]);
    unreadable("moves");
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Unknown, "a branch that moved is dated by its reflog: {}", a.evidence);
    assert!(a.evidence.contains("reflog") && a.evidence.contains("moves"), "{}", a.evidence);
}

/// An observation as `forge refresh` records it in the common git
/// directory: through the gh the task's start PATH finds.
fn observe(t: &TestRepo, observed_at: &str, created_at: &str) {
    t.write(
        ".git/majordomus/forge.json",
        &format!(
            r#"{{"schema":"majordomus/forge/v1","observed_at":"{observed_at}","repository":"acme/widgets",
            "pull_requests":[{{"number":7,"title":"t","author":"a","head":"h","created_at":"{created_at}","state":"open"}}],
            "provenance":{{"by":"gh","program":"/usr/bin/gh","program_at_start":"/usr/bin/gh","start_path_known":true,"remotes_since_start":[]}}}}"#
        ),
    );
}

#[test]
fn an_observation_older_than_the_task_is_refused_rather_than_read_as_empty() {
    let t = TestRepo::with_commit();
    let task = start(&t);
    let a = check(&t, &task, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown, "never observed");
    observe(&t, "2020-01-01T00:00:00Z", "2019-12-31T00:00:00Z");
    let a = check(&t, &task, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("before the task started"), "{}", a.evidence);
    let soon = (Utc::now() + chrono::Duration::minutes(2)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    observe(&t, &soon, &soon);
    assert_eq!(check(&t, &task, "backlog-not-grown").status, Status::Owed);
    observe(&t, &soon, "2019-12-31T00:00:00Z");
    assert_eq!(check(&t, &task, "backlog-not-grown").status, Status::Pass);
    // Written where an older majordomus kept it, without saying how it was made: not the forge's word.
    std::fs::remove_file(t.path().join(".git/majordomus/forge.json")).expect("remove");
    t.write(
        ".ai/local/state/forge.json",
        &format!(r#"{{"schema":"majordomus/forge/v1","observed_at":"{soon}","repository":"acme/widgets"}}"#),
    );
    let a = check(&t, &task, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown, "{}", a.evidence);
    assert!(a.evidence.contains("does not say how it was made"), "{}", a.evidence);
}

#[test]
fn a_garbled_observation_is_unknown_and_takes_no_other_reading_with_it() {
    let t = TestRepo::with_commit();
    let task = start(&t);
    t.write(".ai/local/state/forge.json", "{ not json");
    let a = check(&t, &task, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("not a forge observation"), "{}", a.evidence);
    assert_eq!(check(&t, &task, "nothing-accumulated").status, Status::Pass);
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Exempt);
}

#[test]
fn a_task_started_on_a_branch_made_before_it_is_owed_until_the_branch_is_gone() {
    let t = TestRepo::with_commit();
    t.git(&["switch", "-q", "-c", "feature"]);
    let task = start(&t);
    assert_eq!(task.branch.as_deref(), Some("feature"));
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("branch feature (the task's own branch, checked out here)"), "{}", a.evidence);
    t.write("work.txt", "done\n");
    t.commit_all("the work");
    t.git(&["switch", "-q", "main"]);
    t.git(&["merge", "-q", "--ff-only", "feature"]);
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "landed, the branch still there: {}", a.evidence);
    t.git(&["branch", "-q", "-d", "feature"]);
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
}

#[test]
fn a_task_started_on_main_owes_nothing_for_main() {
    let t = TestRepo::with_commit();
    let task = start(&t);
    assert_eq!(task.branch.as_deref(), Some("main"));
    let a = check(&t, &task, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
}

#[test]
fn a_start_commit_not_in_the_repository_is_unknown_though_the_snapshot_holds_the_baselines() {
    let t = TestRepo::with_commit();
    t.write(LINT, "one\n");
    t.commit_all("baseline");
    let mut task = start(&t);
    assert!(task.snapshot.baseline_bytes.is_some(), "start keeps a snapshot of the baselines");
    task.head = Some("0123456789abcdef0123456789abcdef01234567".into());
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Unknown, "{}", a.evidence);
    assert!(
        a.evidence.contains("0123456789abcdef0123456789abcdef01234567 is not in this repository"),
        "{}",
        a.evidence
    );
    assert_eq!(check(&t, &task, "nothing-accumulated").status, Status::Pass, "the others are still measured");
    assert_eq!(check(&t, &task, "backlog-not-grown").status, Status::Unknown, "never observed, as before");
}

#[test]
fn an_empty_baseline_renamed_is_compared_with_its_former_self_and_launders_no_entry() {
    let t = TestRepo::with_commit();
    t.write(LINT, "");
    t.commit_all("an empty baseline");
    let task = start(&t);
    t.git(&["mv", LINT, ".ai/repo/clippy-baseline.txt"]);
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "a move alone adds nothing: {}", a.evidence);
    t.write(".ai/repo/clippy-baseline.txt", "src/a.rs: unwrap\n");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence.contains("moved from .ai/repo/lint-baseline.txt; 0 entries then, 1 now; added `src/a.rs: unwrap`"),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("(by elimination, the only baseline gone"), "{}", a.evidence);
    assert!(a.remedy.contains("put .ai/repo/lint-baseline.txt back"), "{}", a.remedy);
    t.commit_all("moved");
    assert_eq!(check(&t, &task, "no-new-debt").status, Status::Refused, "committed");
}

#[test]
fn an_empty_baseline_gone_beside_two_new_ones_leaves_neither_taken_for_new() {
    let t = TestRepo::with_commit();
    t.write(LINT, "");
    t.write(".ai/repo/todo-baseline.txt", "keep\n");
    t.commit_all("baselines");
    let task = start(&t);
    t.git(&["rm", "-q", LINT]);
    t.write(".ai/repo/clippy-baseline.txt", "src/a.rs: unwrap\n");
    t.write(".ai/repo/deps-baseline.txt", "");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence.contains(
            ".ai/repo/clippy-baseline.txt (cannot be told from a baseline moved from .ai/repo/lint-baseline.txt, so compared with it (each copy allowed once over every such baseline); 0 entries then, 1 now; added `src/a.rs: unwrap`)"
        ),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("Not taken for new, as .ai/repo/lint-baseline.txt had no entry"), "{}", a.evidence);
    assert_eq!(
        a.details["undecided"],
        serde_json::json!([".ai/repo/clippy-baseline.txt", ".ai/repo/deps-baseline.txt"])
    );
    // Put back, the empty baseline is not gone: the others are new.
    t.write(LINT, "");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(a.evidence.contains("recording debt already there (not growth)"), "{}", a.evidence);
}

#[test]
fn a_baseline_renamed_and_rewritten_keeping_fewer_than_half_its_entries_is_compared_with_its_former_self() {
    let t = TestRepo::with_commit();
    t.write(LINT, "a\nb\nc\nd\n");
    t.commit_all("baseline");
    let task = start(&t);
    t.git(&["mv", LINT, ".ai/repo/clippy-baseline.txt"]);
    t.write(".ai/repo/clippy-baseline.txt", "a\nx\ny\nz\nw\n");
    let a = check(&t, &task, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence
            .contains("moved from .ai/repo/lint-baseline.txt; 4 entries then, 5 now; added `x`, `y`, `z` and 1 more"),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("(by shared entries)"), "{}", a.evidence);
}

#[test]
fn what_is_left_unpaired_is_paired_by_elimination_only_when_unambiguous() {
    let b = |items: &[(&str, &[&str])]| -> Baselines {
        items.iter().map(|(p, e)| (p.to_string(), e.iter().map(|s| s.as_bytes().to_vec()).collect())).collect()
    };
    let told = b(&[("old", &["a"])]);
    let empty = b(&[("old", &[])]);
    let one = b(&[("new", &["x"])]);
    let two = b(&[("new", &["x"]), ("other", &[])]);
    assert_eq!(pair_leftovers(&told, &one), (None, vec![]), "content tells them apart: new");
    let (pair, undecided) = pair_leftovers(&empty, &one);
    assert_eq!(pair.map(|m| (m.from, m.to, m.by)), Some(("old".into(), "new".into(), BY_ELIMINATION)));
    assert!(undecided.is_empty());
    assert_eq!(pair_leftovers(&empty, &two), (None, vec!["new".to_string(), "other".to_string()]));
    let both = b(&[("old", &[]), ("full", &["a"])]);
    assert_eq!(pair_leftovers(&both, &one), (None, vec!["new".to_string()]), "two gone: ambiguous");
    assert_eq!(pair_leftovers(&empty, &Baselines::new()), (None, vec![]));
}
