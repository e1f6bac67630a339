//! The closing questions judged over readings handed in directly.

use chrono::{TimeZone, Utc};
use majordomus_readings::baselines::Baselines;
use majordomus_readings::reflog::Dating;
use majordomus_records::forge::{Observation, PullRequest, FORGE_SCHEMA};
use majordomus_records::task::TaskState;

use super::*;
use crate::family::closing::readings::{Accumulated, Backlog, Debt, Made, Moved, StartFrom};
use crate::family::closing::ClosingReadings;
use crate::fixtures::{all_well, answer, record, trunk_at};

/// 2026-11-30T10:00:00Z, when `record()` started.
fn start() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 10, 0, 0).single().expect("time")
}

fn minutes(n: i64) -> chrono::DateTime<Utc> {
    start() + chrono::Duration::minutes(n)
}

fn baselines(items: &[(&str, &[&str])]) -> Baselines {
    items.iter().map(|(p, e)| (p.to_string(), e.iter().map(|s| s.as_bytes().to_vec()).collect())).collect()
}

fn debt(start: Baselines, now: Baselines) -> Debt {
    Debt {
        start,
        start_from: StartFrom::Snapshot,
        now,
        links: vec![],
        moved: vec![],
        followed: vec![],
        undecided: vec![],
        committed: vec![],
        arrived: vec![],
        landed: Vec::new(),
        head_only: Vec::new(),
    }
}

fn made(name: &str, at: &str, first_logged: Option<chrono::DateTime<Utc>>) -> Made {
    Made {
        name: name.into(),
        at: at.into(),
        dating: first_logged.map_or(Dating::Undated("it has no reflog"), Dating::FirstLogged),
        missing: false,
        detached: false,
        written: None,
    }
}

fn pr(number: u64, created: Option<chrono::DateTime<Utc>>) -> PullRequest {
    PullRequest {
        number,
        title: format!("change {number}"),
        author: Some("someone".into()),
        head: Some(format!("b{number}")),
        created_at: created.map(|t| t.to_rfc3339()),
        state: "open".into(),
    }
}

/// A forge never observed, read a minute ago: the provider set (`None`:
/// the default) and whether every remote is a directory on this machine.
fn unobserved(provider: Option<majordomus_records::policy::Provider>, remotes_on_this_machine: bool) -> Backlog {
    Backlog { observation: None, read_at: minutes(1), max_age_minutes: None, provider, remotes_on_this_machine }
}

fn observed(at: chrono::DateTime<Utc>, prs: Vec<PullRequest>) -> Backlog {
    Backlog {
        observation: Some(Observation {
            schema: FORGE_SCHEMA.into(),
            observed_at: at.to_rfc3339(),
            repository: "acme/widgets".into(),
            pull_requests: prs,
            issues: vec![],
            provenance: None,
        }),
        read_at: at + chrono::Duration::minutes(1),
        max_age_minutes: None,
        provider: None,
        remotes_on_this_machine: false,
    }
}

/// A start snapshot holding `main` and nothing else.
fn with_snapshot(r: &mut Readings, branches: &[&str], worktrees: &[(&str, &str)]) {
    let mut t = record();
    t.snapshot.branches = Some(branches.iter().map(|b| (b.to_string(), "b".repeat(40))).collect());
    t.snapshot.worktrees = Some(worktrees.iter().map(|(n, p)| (n.to_string(), p.to_string())).collect());
    r.task = TaskState::Active(Box::new(t));
}

/// All well, the closing readings included.
fn well() -> Readings {
    let mut r = all_well();
    let lint = baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]);
    r.closing = ClosingReadings {
        debt: Ok(debt(lint.clone(), lint)),
        accumulated: Ok(Accumulated {
            remote_branches: Vec::new(),
            aliases: Vec::new(),
            unchanged_branches: 0,
            branches: vec![made("main", &"b".repeat(40), Some(minutes(-600)))],
            worktrees: vec![],
        }),
        backlog: Ok(observed(minutes(30), vec![pr(1, Some(minutes(-60)))])),
        orphans: Vec::new(),
    };
    with_snapshot(&mut r, &["main"], &[]);
    r
}

#[test]
fn a_further_copy_of_an_entry_is_added_and_one_heads_commit_holds_is_held_now() {
    let judge = |d: Debt| {
        let mut r = well();
        r.closing.debt = Ok(d);
        crate::family::closing::judge::no_new_debt(&r)
    };
    let start = baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b", "b"])]);
    let twice = baselines(&[(".ai/repo/lint-baseline.txt", &["a", "a", "b", "b"])]);
    let j = judge(debt(start.clone(), twice));
    assert_eq!(j.status, Status::Refused, "{}", j.evidence);
    assert!(j.evidence.contains("added `a` (1 copy then, 2 now)"), "{}", j.evidence);
    let again = baselines(&[(".ai/repo/lint-baseline.txt", &["b", "a", "b"])]);
    assert_eq!(judge(debt(start.clone(), again)).status, Status::Pass, "another order adds nothing");
    // The file as it was; HEAD's commit holds one entry more.
    let mut d = debt(start.clone(), start.clone());
    d.head_only = vec![(".ai/repo/lint-baseline.txt".into(), b"c".to_vec())];
    let j = judge(d);
    assert_eq!(j.status, Status::Refused, "{}", j.evidence);
    assert!(j.evidence.contains("HEAD's commit holds `c` where the working tree's file does not"), "{}", j.evidence);
    // A copy the start held, which the file no longer does: none added.
    let mut d = debt(start, baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]));
    d.head_only = vec![(".ai/repo/lint-baseline.txt".into(), b"b".to_vec())];
    let j = judge(d);
    assert_eq!(j.status, Status::Pass, "{}", j.evidence);
    assert!(j.evidence.contains("HEAD's commit holds 1 entry the working tree's files do not"), "{}", j.evidence);
}

#[test]
fn the_closing_questions_pass_when_their_readings_show_nothing_added() {
    let r = well();
    for id in ["no-new-debt", "nothing-accumulated", "backlog-not-grown"] {
        let a = answer(&r, id);
        assert_eq!(a.status, Status::Pass, "{id}: {}", a.evidence);
    }
}

#[test]
fn an_unread_closing_reading_is_unknown_with_its_reason() {
    let mut r = well();
    r.closing = ClosingReadings::unread(&Unread::io("the refs could not be read"));
    for id in ["no-new-debt", "nothing-accumulated", "backlog-not-grown"] {
        let a = answer(&r, id);
        assert_eq!(a.status, Status::Unknown, "{id}");
        assert_eq!(a.evidence, "The refs could not be read.", "{id}");
    }
    assert_eq!(answer(&all_well(), "no-new-debt").status, Status::Unknown, "nothing read by default");
}

#[test]
fn growth_in_one_baseline_is_not_paid_for_by_shrinkage_in_another() {
    let mut r = well();
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b", "c"]), (".ai/repo/todo-baseline.txt", &["x"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a"]), (".ai/repo/todo-baseline.txt", &["x", "y"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains(".ai/repo/todo-baseline.txt (1 entry then, 2 now; added `y`)"), "{}", a.evidence);
    assert!(!a.evidence.contains("lint-baseline.txt ("), "{}", a.evidence);
    assert_eq!(a.details["grew"], serde_json::json!([".ai/repo/todo-baseline.txt"]));
}

#[test]
fn one_entry_taken_out_and_another_put_in_is_caught() {
    let mut r = well();
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "z"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused);
    assert!(a.evidence.contains("2 entries then, 2 now; added `z`"), "{}", a.evidence);
}

#[test]
fn entries_reordered_are_no_growth_a_repeated_one_is_and_a_repeated_new_one_is_named_once() {
    let mut r = well();
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"]), (".ai/repo/todo-baseline.txt", &["x"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["b", "a"]), (".ai/repo/todo-baseline.txt", &["x"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    // A further copy is one more allowed occurrence (test/cases/462).
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["b", "a", "a"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "n", "b", "n"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("2 entries then, 4 now; added `n`)"), "{}", a.evidence);
}

#[test]
fn every_added_entry_is_in_the_details_and_the_first_few_in_the_evidence() {
    let mut r = well();
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "n1", "n2", "n3", "n4", "n5"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert!(a.evidence.contains("added `n1`, `n2`, `n3` and 2 more"), "{}", a.evidence);
    assert_eq!(a.details["baselines"][0]["added"], serde_json::json!(["n1", "n2", "n3", "n4", "n5"]));
}

#[test]
fn a_baseline_that_appears_for_the_first_time_is_named_and_is_not_growth() {
    let mut r = well();
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a"]), (".ai/repo/deep/audit-baseline.txt", &["p", "q"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(
        a.evidence.contains("recording debt already there (not growth): .ai/repo/deep/audit-baseline.txt (2 entries)"),
        "{}",
        a.evidence
    );
}

#[test]
fn a_moved_baseline_is_compared_with_its_former_self() {
    let mut r = well();
    let mut d = debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]),
        baselines(&[(".ai/repo/x/clippy-baseline.txt", &["a", "b", "c"])]),
    );
    d.moved = vec![Moved {
        from: ".ai/repo/lint-baseline.txt".into(),
        to: ".ai/repo/x/clippy-baseline.txt".into(),
        by: "git rename detection",
        left_pattern: false,
    }];
    r.closing.debt = Ok(d);
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence.contains("moved from .ai/repo/lint-baseline.txt; 2 entries then, 3 now; added `c`"),
        "{}",
        a.evidence
    );
}

#[test]
fn a_repository_without_baselines_is_exempt_and_says_so() {
    let mut r = well();
    r.closing.debt = Ok(debt(Baselines::new(), Baselines::new()));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Exempt);
    assert!(a.evidence.contains("keeps no debt baseline"), "{}", a.evidence);
}

#[test]
fn a_branch_and_a_worktree_the_snapshot_did_not_hold_are_owed_and_named_worktrees_first() {
    let mut r = well();
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![
            made("main", &"b".repeat(40), Some(minutes(-600))),
            made("side", &"c".repeat(40), Some(minutes(5))),
            made("topic", &"c".repeat(40), None),
        ],
        worktrees: vec![made("wt", "/tmp/wt", Some(minutes(6)))],
    });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(
        a.evidence.contains("1 worktree and 2 branches created since the start are still there (compared with the start snapshot): worktree wt at /tmp/wt, branch side, branch topic."),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("3 local branches and 1 linked worktree now"), "{}", a.evidence);
    assert!(
        a.remedy.contains("git worktree remove /tmp/wt") && a.remedy.contains("git branch -d side"),
        "{}",
        a.remedy
    );
    assert_eq!(a.details["created"].as_array().map(Vec::len), Some(3));
    // A worktree whose HEAD is detached holds commits on no branch: no
    // command removes it, the advice says to land its work first.
    if let Ok(acc) = &mut r.closing.accumulated {
        acc.worktrees[0].detached = true;
    }
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert_eq!(a.remedy_kind, crate::answer::RemedyKind::Advice, "{}", a.remedy);
    assert!(a.remedy.starts_with("once their work has landed"), "{}", a.remedy);
}

#[test]
fn a_branch_deleted_and_made_again_since_the_start_is_counted() {
    let mut r = well();
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![
            made("main", &"b".repeat(40), Some(minutes(-600))),
            made("side", &"c".repeat(40), Some(minutes(3))),
        ],
        worktrees: vec![],
    });
    with_snapshot(&mut r, &["main", "side"], &[]);
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("branch side"), "{}", a.evidence);
    assert!(a.details["created"][0]["why"].as_str().is_some_and(|w| w.contains("after the start")), "{}", a.details);
    // Logged before the start, and held by the snapshot: there all along.
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![
            made("main", &"b".repeat(40), Some(minutes(-600))),
            made("side", &"c".repeat(40), Some(minutes(-3))),
        ],
        worktrees: vec![],
    });
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Pass);
}

#[test]
fn a_worktree_made_again_at_the_starts_path_is_dated_by_its_making() {
    let mut r = well();
    // The snapshot holds `wt` at /tmp/wt; its reflog is empty (expired, or
    // reflogs off), so the reflog dates nothing.
    let tree = |written: Option<i64>| {
        let mut w = made("wt", "/tmp/wt", None);
        w.detached = true;
        w.written = written.map(minutes);
        Accumulated {
            remote_branches: Vec::new(),
            aliases: Vec::new(),
            unchanged_branches: 0,
            branches: vec![made("main", &"b".repeat(40), Some(minutes(-600)))],
            worktrees: vec![w],
        }
    };
    with_snapshot(&mut r, &["main"], &[("wt", "/tmp/wt")]);
    for before in [None, Some(-3)] {
        r.closing.accumulated = Ok(tree(before));
        assert_eq!(answer(&r, "nothing-accumulated").status, Status::Pass, "{before:?}");
    }
    // `git worktree add` wrote it after the start: removed and made again.
    r.closing.accumulated = Ok(tree(Some(3)));
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("worktree wt at /tmp/wt (made again there since the start)"), "{}", a.evidence);
    assert!(
        a.details["created"][0]["why"].as_str().is_some_and(|w| w.contains("git worktree add wrote it")),
        "{}",
        a.details
    );
    assert_eq!(a.remedy_kind, crate::answer::RemedyKind::Advice, "{}", a.remedy);
}

#[test]
fn a_branch_made_again_at_the_commit_it_held_at_the_start_is_the_starts() {
    let mut r = well();
    // The snapshot holds `side` at b…b; deleted and made again there, its
    // reflog begins after the start, and its reflog is not read at all.
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![
            made("main", &"b".repeat(40), Some(minutes(-600))),
            made("side", &"b".repeat(40), Some(minutes(3))),
        ],
        worktrees: vec![],
    });
    with_snapshot(&mut r, &["main", "side"], &[]);
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    // Moved since, the same reflog makes it new.
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![
            made("main", &"b".repeat(40), Some(minutes(-600))),
            made("side", &"c".repeat(40), Some(minutes(3))),
        ],
        worktrees: vec![],
    });
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Owed);
}

#[test]
fn the_task_branch_made_since_the_start_is_owed_and_marked_checked_out() {
    let mut r = well();
    r.head = Ok(majordomus_readings::refs::Head { commit: Some("c".repeat(40)), branch: Some("feature".into()) });
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![made("main", &"b".repeat(40), None), made("feature", &"c".repeat(40), None)],
        worktrees: vec![],
    });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("branch feature (checked out here)"), "{}", a.evidence);
}

#[test]
fn without_a_snapshot_the_reflogs_date_them_and_an_undated_branch_is_unknown_not_a_pass() {
    let mut r = well();
    let mut t = record();
    t.snapshot.branches = None;
    t.snapshot.worktrees = None;
    r.task = TaskState::Active(Box::new(t));
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![made("main", &"b".repeat(40), Some(minutes(-600))), made("old", &"c".repeat(40), None)],
        worktrees: vec![],
    });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Unknown, "{}", a.evidence);
    assert!(a.evidence.contains("branch old (it has no reflog)"), "{}", a.evidence);
    assert!(a.evidence.contains("dated by the first line of their reflogs"), "{}", a.evidence);
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![made("main", &"b".repeat(40), Some(minutes(-600))), made("new", &"c".repeat(40), Some(start()))],
        worktrees: vec![],
    });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "first logged in the very second of the start: {}", a.evidence);
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![made("main", &"b".repeat(40), Some(minutes(-600)))],
        worktrees: vec![],
    });
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Pass);
}

#[test]
fn a_start_time_that_is_not_rfc3339_leaves_the_dated_questions_unknown_and_the_debt_measured() {
    let mut r = well();
    let mut t = record();
    t.started_at = "yesterday".into();
    t.snapshot.branches = Some([("main".to_string(), "b".repeat(40))].into());
    t.snapshot.worktrees = Some(Default::default());
    r.task = TaskState::Active(Box::new(t));
    for id in ["nothing-accumulated", "backlog-not-grown"] {
        let a = answer(&r, id);
        assert_eq!(a.status, Status::Unknown, "{id}");
        assert!(a.evidence.contains("\"yesterday\" is not RFC 3339"), "{id}: {}", a.evidence);
    }
    assert_eq!(answer(&r, "no-new-debt").status, Status::Pass);
}

#[test]
fn a_forge_never_observed_is_unknown_and_says_so() {
    let mut r = well();
    r.closing.backlog = Ok(unobserved(None, false));
    let a = answer(&r, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("never observed"), "{}", a.evidence);
    assert_eq!(a.remedy, "majordomus forge refresh");
}

#[test]
fn a_policy_declaring_no_forge_exempts_backlog_not_grown_saying_so() {
    let mut r = well();
    r.closing.backlog = Ok(unobserved(Some(majordomus_records::policy::Provider::None), false));
    let a = answer(&r, "backlog-not-grown");
    assert_eq!(a.status, Status::Exempt);
    assert!(a.evidence.contains("[forge] provider = \"none\""), "{}", a.evidence);
    assert_eq!(a.details["forge_provider"], "none");
}

#[test]
fn no_provider_where_every_remote_is_on_this_machine_exempts_backlog_not_grown_saying_why() {
    let mut r = well();
    r.closing.backlog = Ok(unobserved(None, true));
    let a = answer(&r, "backlog-not-grown");
    assert_eq!(a.status, Status::Exempt);
    assert!(a.evidence.contains("directory on this machine"), "{}", a.evidence);
    assert!(a.evidence.contains("Set [forge] provider"), "{}", a.evidence);
    // An observation recorded all the same is judged as ever.
    let mut b = observed(minutes(30), vec![pr(2, Some(minutes(10)))]);
    b.remotes_on_this_machine = true;
    r.closing.backlog = Ok(b);
    assert_eq!(answer(&r, "backlog-not-grown").status, Status::Owed);
}

#[test]
fn a_repository_with_no_remote_is_still_unknown_and_is_shown_the_way_to_say_it_has_no_forge() {
    let mut r = well();
    r.closing.backlog = Ok(unobserved(None, false));
    r.commit.push = Ok(Push::NoRemote);
    let a = answer(&r, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("has no remote"), "{}", a.evidence);
    assert!(a.remedy.contains("[forge] provider = \"none\""), "{}", a.remedy);
}

#[test]
fn an_observation_older_than_the_task_is_refused_rather_than_read_as_empty() {
    let mut r = well();
    r.closing.backlog = Ok(observed(minutes(-5), vec![]));
    let a = answer(&r, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("before the task started"), "{}", a.evidence);
}

#[test]
fn an_observation_older_than_the_policys_maximum_age_is_unknown() {
    let mut r = well();
    let mut b = observed(minutes(10), vec![]);
    b.read_at = minutes(100);
    b.max_age_minutes = Some(60);
    r.closing.backlog = Ok(b.clone());
    let a = answer(&r, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown);
    assert!(
        a.evidence.contains("90 minutes ago, older than the policy's [forge] max_age_minutes = 60"),
        "{}",
        a.evidence
    );
    b.max_age_minutes = Some(120);
    r.closing.backlog = Ok(b);
    assert_eq!(answer(&r, "backlog-not-grown").status, Status::Pass);
}

#[test]
fn a_pull_request_opened_since_the_start_is_owed_and_one_without_a_creation_time_is_unknown() {
    let mut r = well();
    r.closing.backlog = Ok(observed(minutes(30), vec![pr(1, Some(minutes(-60))), pr(2, Some(minutes(10)))]));
    let a = answer(&r, "backlog-not-grown");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence.starts_with("1 pull request opened since the start is still open: #2 \"change 2\" by someone."),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("2 pull requests open on acme/widgets now"), "{}", a.evidence);
    r.closing.backlog = Ok(observed(minutes(30), vec![pr(1, Some(minutes(-60))), pr(3, None)]));
    let a = answer(&r, "backlog-not-grown");
    assert_eq!(a.status, Status::Unknown, "a pull request whose creation time cannot be read is not skipped");
    assert!(a.evidence.contains("#3"), "{}", a.evidence);
}

/// `well()` with the task started on `branch`, which the start snapshot
/// held beside `main`, both there long before the start.
fn started_on(branch: &str) -> Readings {
    let mut r = well();
    let mut t = record();
    t.branch = Some(branch.into());
    t.snapshot.branches = Some([("main".to_string(), "b".repeat(40)), (branch.to_string(), "c".repeat(40))].into());
    t.snapshot.worktrees = Some(Default::default());
    r.task = TaskState::Active(Box::new(t));
    r.head = Ok(majordomus_readings::refs::Head { commit: Some("c".repeat(40)), branch: Some(branch.into()) });
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![
            made("main", &"b".repeat(40), Some(minutes(-600))),
            made(branch, &"c".repeat(40), Some(minutes(-300))),
        ],
        worktrees: vec![],
    });
    r
}

#[test]
fn the_tasks_own_branch_is_owed_though_it_was_there_before_the_start_until_it_is_gone() {
    let mut r = started_on("feature");
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("branch feature (the task's own branch, checked out here)"), "{}", a.evidence);
    assert_eq!(a.details["created"][0]["why"], "the task's own branch (checked out at the start)");
    assert_eq!(a.details["own_branch"], "feature");
    // Detached at the trunk, not switched to its branch: that works in a
    // linked worktree too, where the trunk's branch is checked out elsewhere.
    assert_eq!(a.remedy, "git switch --detach origin/main && git branch -d feature");
    assert_eq!(a.remedy_kind, crate::answer::RemedyKind::Command);
    // Switched back to main, the branch still there: still owed.
    r.head = Ok(majordomus_readings::refs::Head { commit: Some("b".repeat(40)), branch: Some("main".into()) });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("branch feature (the task's own branch) was there at the start"), "{}", a.evidence);
    assert!(!a.evidence.contains("created since the start"), "{}", a.evidence);
    assert!(a.remedy.contains("git branch -d feature"), "{}", a.remedy);
    // Landed and deleted: nothing remains.
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![made("main", &"b".repeat(40), Some(minutes(-600)))],
        worktrees: vec![],
    });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
}

#[test]
fn a_task_started_on_the_trunks_branch_owes_nothing_for_it() {
    let r = well();
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Pass, "started on main, trunk origin/main");
    // The trunk a local branch of another name: that one is the trunk's.
    let mut r = started_on("develop");
    let trunk = trunk_at("refs/heads/develop", 'c');
    r.integration.integrated =
        Ok(Integrated::Measured { trunk, integration: majordomus_readings::refs::Integration::Reached });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    // With the trunk unread, a task branch named main or master owes
    // nothing, and any other is still the task's own.
    for (branch, status) in [("main", Status::Pass), ("master", Status::Pass), ("develop", Status::Owed)] {
        let mut r = started_on(branch);
        r.integration.integrated = Err(Unread::io("no trunk was found"));
        let a = answer(&r, "nothing-accumulated");
        assert_eq!(a.status, status, "{branch}: {}", a.evidence);
    }
}

#[test]
fn the_trunks_branch_made_by_the_first_commit_of_an_unborn_repository_is_never_accumulated() {
    // Started with no commit: no branch at the start, and none checked out.
    let mut r = well();
    let mut t = record();
    t.head = None;
    t.snapshot.branches = Some(Default::default());
    t.snapshot.worktrees = Some(Default::default());
    r.task = TaskState::Active(Box::new(t));
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![made("main", &"b".repeat(40), Some(minutes(5)))],
        worktrees: vec![],
    });
    // The trunk is main (a local one here): its branch is not the task's leftover.
    let trunk = trunk_at("refs/heads/main", 'b');
    r.integration.integrated =
        Ok(Integrated::Measured { trunk, integration: majordomus_readings::refs::Integration::Reached });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "{}: {}", a.evidence, a.remedy);
    // With the trunk unread, main and master are not counted; another branch is.
    r.integration.integrated = Err(Unread::io("no trunk was found"));
    for (branch, status) in [("main", Status::Pass), ("master", Status::Pass), ("topic", Status::Owed)] {
        r.closing.accumulated = Ok(Accumulated {
            remote_branches: Vec::new(),
            aliases: Vec::new(),
            unchanged_branches: 0,
            branches: vec![made(branch, &"b".repeat(40), Some(minutes(5)))],
            worktrees: vec![],
        });
        let a = answer(&r, "nothing-accumulated");
        assert_eq!(a.status, status, "{branch}: {}", a.evidence);
    }
    // With a trunk of another name, a main made since the start is counted.
    let trunk = trunk_at("refs/remotes/origin/develop", 'b');
    r.integration.integrated =
        Ok(Integrated::Measured { trunk, integration: majordomus_readings::refs::Integration::Reached });
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: vec![made("main", &"b".repeat(40), Some(minutes(5)))],
        worktrees: vec![],
    });
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Owed);
}

#[test]
fn an_undecided_baseline_is_compared_with_every_baseline_gone_and_passes_only_within_them() {
    let mut r = well();
    let mut d = debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &[]), (".ai/repo/todo-baseline.txt", &["t"])]),
        baselines(&[(".ai/repo/a-baseline.txt", &["t"]), (".ai/repo/b-baseline.txt", &[])]),
    );
    d.undecided = vec![".ai/repo/a-baseline.txt".into(), ".ai/repo/b-baseline.txt".into()];
    r.closing.debt = Ok(d.clone());
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(
        a.evidence.contains("Not taken for new, as .ai/repo/lint-baseline.txt had no entry to tell a move by"),
        "{}",
        a.evidence
    );
    assert_eq!(
        a.details["baselines"][0]["compared_with"],
        serde_json::json!([".ai/repo/lint-baseline.txt", ".ai/repo/todo-baseline.txt"])
    );
    d.now.insert(".ai/repo/b-baseline.txt".into(), vec!["n".into()]);
    r.closing.debt = Ok(d.clone());
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence.contains(".ai/repo/b-baseline.txt (cannot be told from a baseline moved from .ai/repo/lint-baseline.txt, .ai/repo/todo-baseline.txt, so compared with them (each copy allowed once over every such baseline); 1 entry then, 1 now; added `n`)"),
        "{}",
        a.evidence
    );
    assert!(
        a.remedy.ends_with("; if .ai/repo/b-baseline.txt is new and not .ai/repo/lint-baseline.txt moved, put .ai/repo/lint-baseline.txt back"),
        "{}",
        a.remedy
    );
    assert!(!a.evidence.contains(".ai/repo/a-baseline.txt ("), "a holds only what was gone: {}", a.evidence);
    // The one copy gone held in both: a further copy, added (test/cases/537).
    d.now.insert(".ai/repo/b-baseline.txt".into(), vec!["t".into()]);
    r.closing.debt = Ok(d);
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("added `t` (1 copy then, 2 now)"), "{}", a.evidence);
}

#[test]
fn a_new_baseline_fed_by_entries_taken_out_of_another_is_compared_with_the_copies_taken_out() {
    let mut r = well();
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b", "d"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a"]), (".ai/repo/lint-more-baseline.txt", &["b", "d", "c"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence.contains(
            ".ai/repo/lint-more-baseline.txt (new since the start, but holding 2 entries taken out of other baselines since, \
             so compared with the copies taken out of the start's baselines (each allowed once over every new baseline); \
             2 entries then, 3 now; added `c`)"
        ),
        "{}",
        a.evidence
    );
    assert_eq!(a.details["first_seen"], serde_json::json!([]));
    // Fed by entries still where they were (a copy, not a move): a new
    // baseline recording debt already there, named and not counted.
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"]), (".ai/repo/clippy-baseline.txt", &["b", "z"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(
        a.evidence.contains("recording debt already there (not growth): .ai/repo/clippy-baseline.txt (2 entries)"),
        "{}",
        a.evidence
    );
}

#[test]
fn a_new_baseline_may_hold_the_copies_taken_out_and_no_more() {
    let mut r = well();
    // One of two copies moved out leaves the other where it was: the new
    // baseline is fed by the one, and its own entry is added.
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["b", "b", "c"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["b", "c"]), (".ai/repo/expect-baseline.txt", &["b", "n"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("1 entry then, 2 now; added `n`"), "{}", a.evidence);
    // An entry two baselines held, taken out of one.
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/a-baseline.txt", &["x"]), (".ai/repo/b-baseline.txt", &["x"])]),
        baselines(&[
            (".ai/repo/a-baseline.txt", &["x"]),
            (".ai/repo/b-baseline.txt", &[]),
            (".ai/repo/c-baseline.txt", &["x", "n"]),
        ]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("added `n`"), "{}", a.evidence);
    // A copy taken out is held anew once: two new baselines cannot both.
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]),
        baselines(&[
            (".ai/repo/lint-baseline.txt", &["a"]),
            (".ai/repo/m-baseline.txt", &["b"]),
            (".ai/repo/n-baseline.txt", &["b"]),
        ]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains(".ai/repo/n-baseline.txt (new since the start"), "{}", a.evidence);
    // The honest split: what was taken out, and only that, passes.
    r.closing.debt = Ok(debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b", "b"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"]), (".ai/repo/m-baseline.txt", &["b"])]),
    ));
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
}

#[test]
fn every_file_holding_entries_of_a_baseline_gone_from_its_path_draws_on_the_copies_taken_out() {
    let mut r = well();
    // Split over three files out of the pattern, git pairing one: the
    // others are followed, and the new entry beside a share is added.
    let gone = || baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b", "c"])]);
    let mut d = debt(
        gone(),
        baselines(&[("lint/a-allow.txt", &["a", "n"]), ("lint/b-allow.txt", &["b"]), ("lint/c-allow.txt", &["c"])]),
    );
    let moved = |to: &str, by: &'static str| Moved {
        from: ".ai/repo/lint-baseline.txt".into(),
        to: to.into(),
        by,
        left_pattern: true,
    };
    d.moved = vec![moved("lint/b-allow.txt", "git rename detection")];
    d.followed = vec![moved("lint/a-allow.txt", "entries of it held there"), moved("lint/c-allow.txt", "entries")];
    r.closing.debt = Ok(d.clone());
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence.contains("lint/a-allow.txt (new since the start, out of the naming pattern and followed"),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("1 entry then, 2 now; added `n`"), "{}", a.evidence);
    // The honest split passes.
    d.now.insert("lint/a-allow.txt".into(), vec![b"a".to_vec()]);
    r.closing.debt = Ok(d);
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    // Moved in the pattern while a new baseline copies it and adds one:
    // no copy was taken out, so every copy it holds is added, the new
    // entry named first; it is not a new tool's findings.
    let mut d = debt(
        gone(),
        baselines(&[
            (".ai/repo/old/lint-baseline.txt", &["a", "b", "c"]),
            (".ai/repo/x-baseline.txt", &["a", "b", "c", "n"]),
        ]),
    );
    d.moved = vec![Moved { left_pattern: false, ..moved(".ai/repo/old/lint-baseline.txt", "git rename detection") }];
    r.closing.debt = Ok(d);
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("0 entries then, 4 now; added `n`, `a` (1 copy then, 1 now)"), "{}", a.evidence);
    assert_eq!(a.details["first_seen"], serde_json::json!([]));
}

#[test]
fn a_new_baseline_holding_an_entry_the_task_committed_is_compared_and_the_entry_is_added() {
    let mut r = well();
    // The start's entries are read without the one the task committed
    // (`committed_since`), so nothing was taken out; the new baseline is
    // fed by the task's own entry, which is added.
    let mut d = debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a"])]),
        baselines(&[(".ai/repo/lint-baseline.txt", &["a"]), (".ai/repo/peer-baseline.txt", &["p"])]),
    );
    d.committed = vec![b"p".to_vec()];
    r.closing.debt = Ok(d);
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence.contains(
            ".ai/repo/peer-baseline.txt (new since the start, but holding 1 entry uncommitted at the start that the task \
             committed (the task's, not the start's)"
        ),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("added `p`"), "{}", a.evidence);
}

#[test]
fn a_baseline_followed_out_of_the_naming_pattern_and_one_read_through_a_link_are_named() {
    let mut r = well();
    let mut d = debt(
        baselines(&[(".ai/repo/lint-baseline.txt", &["a", "b"])]),
        baselines(&[("config/lint-allow.txt", &["a", "b", "c"])]),
    );
    d.moved = vec![Moved {
        from: ".ai/repo/lint-baseline.txt".into(),
        to: "config/lint-allow.txt".into(),
        by: "git rename detection",
        left_pattern: true,
    }];
    d.links = vec![majordomus_readings::baselines::Link { path: ".ai/repo".into(), target: "shared/debt".into() }];
    r.closing.debt = Ok(d);
    let a = answer(&r, "no-new-debt");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(
        a.evidence
            .contains("config/lint-allow.txt (moved from .ai/repo/lint-baseline.txt and out of the naming pattern"),
        "{}",
        a.evidence
    );
    assert!(a.evidence.ends_with("; read through symbolic links: .ai/repo to shared/debt."), "{}", a.evidence);
    assert_eq!(a.details["moved"][0]["left_pattern"], true);
}

#[test]
fn a_branch_or_worktree_made_in_a_submodule_since_the_start_is_owed_and_one_it_held_then_is_not() {
    use majordomus_readings::refs::in_submodules::{Basis, Dated, Left};
    use majordomus_records::task::SubmoduleAtStart;
    let dated = |name: &str, at: &str, first: chrono::DateTime<Utc>| Dated {
        name: name.into(),
        at: at.into(),
        dating: Dating::FirstLogged(first),
        missing: false,
        detached: false,
        on_remote: false,
    };
    let lib = |branches: Vec<Dated>, basis: Basis| Left {
        path: "lib".into(),
        basis,
        checked_out: true,
        named: Some("/srv/lib.git".into()),
        remote: Some("origin".into()),
        head_branch: Some("helper".into()),
        unpushed: vec![],
        truncated: false,
        stashes: vec![],
        branches,
        worktrees: vec![],
        operations: Ok(vec![]),
        conflicted: vec![],
        unread: None,
    };
    let mut r = well();
    let mut t = r.task.record().expect("a task").clone();
    let old = SubmoduleAtStart {
        git_dir: "/w/.git/modules/lib".into(),
        branches: [("old".to_string(), "c".repeat(40))].into(),
        ..SubmoduleAtStart::default()
    };
    t.snapshot.submodules = Some([("lib".to_string(), old)].into());
    r.task = TaskState::Active(Box::new(t));
    // Held at the start (moved since, its reflog older than the start): older.
    r.commit.in_submodules = Ok(vec![lib(vec![dated("old", &"d".repeat(40), minutes(-60))], Basis::Recorded)]);
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    // Made since: owed, named with its submodule. Its work on no remote:
    // advice, never a line that deletes it (a detach at its own tip lets
    // `branch -d` delete anything).
    r.commit.in_submodules = Ok(vec![lib(vec![dated("helper", &"d".repeat(40), minutes(5))], Basis::Recorded)]);
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("branch helper in the submodule lib"), "{}", a.evidence);
    assert_eq!(a.remedy_kind, crate::answer::RemedyKind::Advice, "{}", a.remedy);
    assert!(a.remedy.contains("git -C PATH push -u REMOTE BRANCH"), "{}", a.remedy);
    // Its remote holds its commit: checked out there, the remedy detaches
    // it where it is and deletes it.
    let pushed = Dated { on_remote: true, ..dated("helper", &"d".repeat(40), minutes(5)) };
    r.commit.in_submodules = Ok(vec![lib(vec![pushed], Basis::Recorded)]);
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.remedy_kind, crate::answer::RemedyKind::Command, "{}", a.remedy);
    assert_eq!(a.remedy, "git -C lib switch --detach && git -C lib branch -D helper");
    // Its main is where its work lands: never counted.
    r.commit.in_submodules = Ok(vec![lib(vec![dated("main", &"d".repeat(40), minutes(5))], Basis::NotThen)]);
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Pass);
    // Without a snapshot of it: dated by its reflog.
    r.commit.in_submodules = Ok(vec![lib(vec![dated("helper", &"d".repeat(40), minutes(-5))], Basis::NoSnapshot)]);
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Pass);
    let mut t = r.task.record().expect("a task").clone();
    t.snapshot.submodules = None;
    r.task = TaskState::Active(Box::new(t));
    r.commit.in_submodules = Ok(vec![lib(vec![dated("helper", &"d".repeat(40), minutes(5))], Basis::NoSnapshot)]);
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Owed);
}

#[test]
fn a_branch_whose_work_the_trunk_holds_by_a_squash_is_deleted_with_capital_d_and_any_other_with_d() {
    use crate::family::integration::{BranchLanded, Integrated};
    use majordomus_readings::refs::Integration;
    let mut r = started_on("feature");
    let trunk = crate::fixtures::trunk_at("refs/remotes/origin/main", 'b');
    let held = Integration::Holds { paths: 1, commit: "b".repeat(40), behind_tip: 0 };
    r.integration.integrated = Ok(Integrated::Measured { trunk, integration: held });
    assert_eq!(answer(&r, "nothing-accumulated").remedy, "git switch --detach origin/main && git branch -D feature");
    // Left behind, HEAD on main: -D only where the reading proves it landed, at its tip.
    r.head = Ok(majordomus_readings::refs::Head { commit: Some("b".repeat(40)), branch: Some("main".into()) });
    assert_eq!(answer(&r, "nothing-accumulated").remedy, "git branch -d feature");
    let landed = |commit: &str| BranchLanded { name: "feature".into(), commit: commit.into(), held_paths: Some(1) };
    r.integration.branches_landed = Ok(vec![landed(&"d".repeat(40))]);
    assert_eq!(answer(&r, "nothing-accumulated").remedy, "git branch -d feature", "another tip than the branch's");
    r.integration.branches_landed = Ok(vec![landed(&"c".repeat(40))]);
    assert_eq!(answer(&r, "nothing-accumulated").remedy, "git branch -D feature");
}

#[test]
fn a_branch_pushed_from_here_is_deleted_or_pruned_and_each_such_choice_is_one_step_of_the_line() {
    let one = delete_or_prune("origin", "feat");
    assert_eq!(one, "git push origin --delete refs/heads/feat || git fetch --prune origin");
    assert_eq!(joined(&[one.as_str()]), one, "a line alone is not braced");
    let two = delete_or_prune("up stream", "x");
    assert_eq!(
        joined(&["git branch -d side", one.as_str(), two.as_str()]),
        "git branch -d side && { git push origin --delete refs/heads/feat || git fetch --prune origin; } && { git push 'up stream' --delete refs/heads/x || git fetch --prune 'up stream'; }"
    );
}
