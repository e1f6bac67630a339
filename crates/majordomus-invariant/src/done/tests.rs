//! The judging rules, over readings handed in directly (no repository).

use majordomus_readings::refs::{Branch, Head, Integration, Trunk, Upstream};
use majordomus_readings::status::{Dirty, WorkingTree};
use majordomus_readings::{changes::ChangeSet, stash::StashEntry, Unread};
use majordomus_records::task::{Snapshot, TaskRecord, UntrackedPath, TASK_SCHEMA};

use super::*;

mod closing;

pub(super) fn record() -> TaskRecord {
    TaskRecord {
        schema: TASK_SCHEMA.into(),
        id: "t".into(),
        task: "work".into(),
        scope: vec![],
        issues: vec![],
        started_at: "2026-11-30T10:00:00Z".into(),
        head: Some("a".repeat(40)),
        branch: Some("main".into()),
        snapshot: Snapshot {
            untracked: Some(vec![]),
            stashes: Some(vec![]),
            dirty: Some(vec![]),
            ..Snapshot::default()
        },
        owner: None,
    }
}

fn today() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("a date")
}

fn unread<T>() -> Result<T, Unread> {
    Err(Unread::io("the test took no reading"))
}

/// Readings none of which could be taken.
fn nothing_read(task: TaskState) -> Readings {
    Readings {
        task,
        head: unread(),
        tree: unread(),
        changes: unread(),
        inherited_dirty: unread(),
        stashes: unread(),
        operation: unread(),
        branches: unread(),
        push: unread(),
        integration: unread(),
        commits_since_start: unread(),
        today: today(),
        exemptions_at_start: unread(),
        verification: Default::default(),
        closing: Default::default(),
        bookkeeping: Default::default(),
    }
}

/// A trunk found at `refname` (`refs/heads/B` or `refs/remotes/origin/B`),
/// naming the branch B, at the commit of 40 `c`s.
pub(super) fn trunk_at(refname: &str, c: char) -> Trunk {
    let branch = refname.strip_prefix("refs/heads/").or_else(|| refname.strip_prefix("refs/remotes/origin/"));
    Trunk {
        refname: refname.into(),
        branch: branch.expect("a branch or origin ref").into(),
        commit: c.to_string().repeat(40),
        chosen_by: "the test".into(),
    }
}

/// Readings of a clean, pushed, integrated repository with one commit made.
pub(super) fn all_well() -> Readings {
    let trunk = trunk_at("refs/remotes/origin/main", 'b');
    Readings {
        task: TaskState::Active(Box::new(record())),
        head: Ok(Head { commit: Some("b".repeat(40)), branch: Some("main".into()) }),
        tree: Ok(WorkingTree::default()),
        changes: Ok(ChangeSet { changed: vec!["src/lib.rs".into(), "tests/it.rs".into()], inherited: vec![] }),
        inherited_dirty: Ok(Default::default()),
        stashes: Ok(vec![]),
        operation: Ok(None),
        branches: Ok(vec![Branch {
            name: "main".into(),
            commit: "b".repeat(40),
            upstream: Some(Upstream { refname: "refs/remotes/origin/main".into(), exists: true }),
        }]),
        push: Ok(Push::Measured {
            against: "refs/remotes/origin/main".into(),
            how: "its upstream".into(),
            commits: vec![],
            count: 0,
            since_start: Some((vec![], 0)),
        }),
        integration: Ok(Integrated::Measured { trunk, integration: Integration::Reached }),
        commits_since_start: Ok((vec!["b".repeat(40)], 1)),
        today: today(),
        exemptions_at_start: Ok(Some(vec![])),
        verification: crate::verification::VerificationReadings { gone: Ok(vec![]), ..Default::default() },
        closing: Default::default(),
        bookkeeping: Default::default(),
    }
}

fn status_of(answers: &[Answer], id: &str) -> Status {
    answers.iter().find(|a| a.id == id).map(|a| a.status).expect("question answered")
}

pub(super) fn answer(r: &Readings, id: &str) -> Answer {
    answer_all(r, &Policy::default()).into_iter().find(|a| a.id == id).expect("answered")
}

#[test]
fn with_nothing_behind_it_no_question_passes() {
    for task in [TaskState::None, TaskState::Unreadable("garbled".into()), TaskState::Active(Box::new(record()))] {
        let answers = answer_all(&nothing_read(task), &Policy::default());
        assert_eq!(answers.len(), QUESTIONS.len());
        for a in &answers {
            assert_ne!(a.status, Status::Pass, "{} passed with nothing read", a.id);
        }
    }
}

#[test]
fn an_unread_reading_is_never_a_pass_it_is_unknown_with_its_reason() {
    let mut r = all_well();
    r.push = Err(Unread::io("the refs could not be read"));
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Unknown);
    assert_eq!(a.evidence, "The refs could not be read.");
}

#[test]
fn a_repository_where_all_is_well_passes_every_measured_question() {
    let answers = answer_all(&all_well(), &Policy::default());
    for id in [
        "regression-tested",
        "committed",
        "no-untracked",
        "no-stash",
        "settled",
        "pushed",
        "integrated",
        "upstream-alive",
        "measurable",
    ] {
        assert_eq!(status_of(&answers, id), Status::Pass, "{id}");
    }
    assert_eq!(status_of(&answers, "scoped"), Status::Exempt);
}

#[test]
fn every_built_in_question_has_a_reading_now() {
    for r in [all_well(), nothing_read(TaskState::Active(Box::new(record())))] {
        for a in answer_all(&r, &Policy::default()) {
            assert!(!a.evidence.contains("No reading exists"), "{}: {}", a.id, a.evidence);
        }
    }
}

#[test]
fn without_a_task_record_the_questions_that_need_one_are_unknown_with_the_remedy_start() {
    let mut r = all_well();
    r.task = TaskState::None;
    let answers = answer_all(&r, &Policy::default());
    for q in QUESTIONS.iter().filter(|q| q.needs_task) {
        let a = answers.iter().find(|a| a.id == q.id).expect("answered");
        assert_eq!(a.status, Status::Unknown, "{}", q.id);
        assert_eq!(a.evidence, "No task record says where this work started.");
        assert_eq!(a.remedy, "majordomus start TASK");
        assert_eq!(a.unread_kind(), Some(majordomus_readings::UnreadKind::NoTask), "{}", q.id);
    }
    assert_eq!(status_of(&answers, "pushed"), Status::Pass);
}

#[test]
fn a_path_outside_the_scope_refuses_and_is_named() {
    let mut r = all_well();
    let mut t = record();
    t.scope = vec!["src".into()];
    r.task = TaskState::Active(Box::new(t));
    r.changes = Ok(ChangeSet { changed: vec!["src/a.rs".into(), "srcx/b.rs".into()], inherited: vec![] });
    let a = answer(&r, "scoped");
    assert_eq!(a.status, Status::Refused);
    assert!(a.evidence.contains("srcx/b.rs"), "{}", a.evidence);
    assert_eq!(a.details["outside"], serde_json::json!(["srcx/b.rs"]));
}

#[test]
fn scope_matching_is_by_whole_path_components() {
    let scope = vec!["src/parser".to_string()];
    assert!(in_scope("src/parser", &scope));
    assert!(in_scope("src/parser/lex.rs", &scope));
    assert!(!in_scope("src/parser2/lex.rs", &scope));
    assert!(!in_scope("src/lib.rs", &scope));
}

#[test]
fn test_paths_are_recognised_by_the_usual_conventions() {
    for p in [
        "tests/it.rs",
        "src/foo/tests/x.rs",
        "pkg/parser_test.go",
        "test_parser.py",
        "web/a.test.ts",
        "spec/models/user_spec.rb",
    ] {
        assert!(is_test_path(p), "{p}");
    }
    for p in ["src/lib.rs", "README.md", "contest.rs", "src/testing_utils_prod.rs"] {
        assert!(!is_test_path(p), "{p}");
    }
}

#[test]
fn a_change_without_a_test_owes_regression_tested_and_no_change_is_exempt() {
    let mut r = all_well();
    r.changes = Ok(ChangeSet { changed: vec!["src/lib.rs".into()], inherited: vec![] });
    assert_eq!(answer(&r, "regression-tested").status, Status::Owed);
    r.changes = Ok(ChangeSet::default());
    assert_eq!(answer(&r, "regression-tested").status, Status::Exempt);
}

#[test]
fn a_deleted_test_path_is_named_and_does_not_count_as_a_regression_test() {
    let mut r = all_well();
    r.changes = Ok(ChangeSet { changed: vec!["a.txt".into(), "tests/p_test.rs".into()], inherited: vec![] });
    r.verification.gone = Ok(vec!["tests/p_test.rs".into()]);
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert_eq!(
        a.evidence,
        "None of the 2 paths changed since the start is a test path still there \
         (1 test path deleted, and a deleted test does not count: tests/p_test.rs)."
    );
    assert_eq!(a.details["deleted_tests"], serde_json::json!(["tests/p_test.rs"]));
    // Another test still there passes, and the deleted one is still named.
    r.changes = Ok(ChangeSet {
        changed: vec!["a.txt".into(), "tests/p_test.rs".into(), "tests/q_test.rs".into()],
        inherited: vec![],
    });
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(a.evidence.contains("1 test path: tests/q_test.rs (1 test path deleted"), "{}", a.evidence);
    // Whether a test path is still there, unread, is never a pass.
    r.verification.gone = Err(Unread::io("the test took no reading"));
    assert_eq!(answer(&r, "regression-tested").status, Status::Unknown);
}

#[test]
fn inherited_dirty_files_are_named_not_counted() {
    let mut r = all_well();
    r.tree = Ok(WorkingTree {
        dirty: vec![
            Dirty { path: "old.txt".into(), index: None, deleted: false },
            Dirty { path: "new.txt".into(), index: None, deleted: false },
        ],
        ..WorkingTree::default()
    });
    r.inherited_dirty = Ok(["old.txt".to_string()].into());
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(a.details["uncommitted"], serde_json::json!(["new.txt"]));
    assert!(a.evidence.contains("not counted: old.txt"), "{}", a.evidence);
    r.inherited_dirty = Ok(["old.txt".to_string(), "new.txt".to_string()].into());
    assert_eq!(answer(&r, "committed").status, Status::Pass);
}

#[test]
fn an_uncommitted_file_whose_content_is_as_at_the_start_is_not_counted_as_changed_since_the_start() {
    // a.txt edited; b.txt dirty at the start and only staged since: both
    // uncommitted, but only a.txt is in the change set.
    let mut r = all_well();
    r.changes = Ok(ChangeSet { changed: vec!["a.txt".into()], inherited: vec!["b.txt".into()] });
    r.tree = Ok(WorkingTree {
        dirty: vec![
            Dirty { path: "a.txt".into(), index: None, deleted: false },
            Dirty { path: "b.txt".into(), index: Some("c".repeat(40)), deleted: false },
        ],
        ..WorkingTree::default()
    });
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(
        a.evidence,
        "1 tracked file changed since the start is not committed: a.txt; \
         1 tracked file whose content is what it was at the start differs from HEAD, not committed: b.txt."
    );
    assert_eq!(a.details["content_as_at_start"], serde_json::json!(["b.txt"]));
    assert_eq!(answer(&r, "regression-tested").evidence, "None of the 1 path changed since the start is a test path.");
    // The change set unread: every uncommitted file is said as before.
    r.changes = Err(Unread::io("the test took no reading"));
    let a = answer(&r, "committed");
    assert!(
        a.evidence.starts_with("2 tracked files changed since the start are not committed: a.txt, b.txt"),
        "{}",
        a.evidence
    );
}

#[test]
fn untracked_files_present_at_the_start_are_inherited() {
    let mut r = all_well();
    let mut t = record();
    t.snapshot.untracked = Some(vec![UntrackedPath { path: "scratch.txt".into(), worktree: None }]);
    r.task = TaskState::Active(Box::new(t));
    r.tree = Ok(WorkingTree { untracked: vec!["scratch.txt".into()], ..WorkingTree::default() });
    assert_eq!(answer(&r, "no-untracked").status, Status::Pass);
    r.tree = Ok(WorkingTree { untracked: vec!["scratch.txt".into(), "new.log".into()], ..WorkingTree::default() });
    let a = answer(&r, "no-untracked");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(a.details["untracked"], serde_json::json!(["new.log"]));
}

#[test]
fn a_stash_made_during_the_task_is_owed_with_its_exact_ref() {
    let mut r = all_well();
    r.stashes = Ok(vec![StashEntry { index: 0, commit: "c".repeat(40), message: "On main: wip".into() }]);
    let a = answer(&r, "no-stash");
    assert_eq!(a.status, Status::Owed);
    assert!(a.remedy.contains("stash@{0}"), "{}", a.remedy);
    let mut t = record();
    t.snapshot.stashes = Some(vec!["c".repeat(40)]);
    r.task = TaskState::Active(Box::new(t));
    assert_eq!(answer(&r, "no-stash").status, Status::Pass);
}

#[test]
fn a_snapshot_without_the_untracked_files_is_unknown_not_an_empty_set() {
    let mut r = all_well();
    let mut t = record();
    t.snapshot.untracked = None;
    r.task = TaskState::Active(Box::new(t));
    assert_eq!(answer(&r, "no-untracked").status, Status::Unknown);
}

#[test]
fn an_operation_in_progress_or_a_conflict_is_owed() {
    let mut r = all_well();
    r.operation = Ok(Some("rebase".into()));
    let a = answer(&r, "settled");
    assert_eq!(a.status, Status::Owed);
    assert!(a.remedy.contains("git rebase --continue"), "{}", a.remedy);
    r.operation = Ok(None);
    r.tree = Ok(WorkingTree { conflicted: vec!["a.txt".into()], ..WorkingTree::default() });
    assert_eq!(answer(&r, "settled").status, Status::Owed);
}

#[test]
fn commits_unpushed_at_the_start_are_inherited_and_new_ones_owed() {
    let mut r = all_well();
    r.push = Ok(Push::Measured {
        against: "refs/remotes/origin/main".into(),
        how: "its upstream".into(),
        commits: vec!["d".repeat(40), "e".repeat(40)],
        count: 2,
        since_start: Some((vec!["d".repeat(40)], 1)),
    });
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.starts_with("1 commit on HEAD is not on origin/main"), "{}", a.evidence);
    assert!(
        a.evidence.contains("1 commit already unpushed at the start, not counted: eeeeeeeeeeee)"),
        "{}",
        a.evidence
    );
    r.push = Ok(Push::NoRemote);
    assert_eq!(answer(&r, "pushed").status, Status::Exempt);
}

#[test]
fn commits_unpushed_at_the_start_are_named_the_first_few_and_the_rest_counted() {
    let mut r = all_well();
    let old: Vec<String> = (0..7).map(|n| format!("{n}").repeat(40)).collect();
    r.push = Ok(Push::Measured {
        against: "refs/remotes/origin/main".into(),
        how: "its upstream".into(),
        commits: old.clone(),
        count: 7,
        since_start: Some((vec![], 0)),
    });
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Pass);
    assert!(
        a.evidence.contains(
            "(7 commits already unpushed at the start, not counted: 000000000000, 111111111111, 222222222222, 333333333333, 444444444444 and 2 more)"
        ),
        "{}",
        a.evidence
    );
}

#[test]
fn a_squash_merged_head_is_integrated_and_a_missing_one_owed() {
    let mut r = all_well();
    let trunk = trunk_at("refs/remotes/origin/main", 'f');
    let tip = Integration::Holds { paths: 3, commit: trunk.commit.clone(), behind_tip: 0 };
    r.integration = Ok(Integrated::Measured { trunk: trunk.clone(), integration: tip });
    assert_eq!(answer(&r, "integrated").status, Status::Pass);
    r.integration = Ok(Integrated::Measured {
        trunk: trunk.clone(),
        integration: Integration::Missing {
            paths: vec!["a".into()],
            ahead: vec![],
            ahead_count: 1,
            searched_only: None,
        },
    });
    let a = answer(&r, "integrated");
    assert_eq!(a.status, Status::Owed);
    assert!(!a.evidence.contains("not searched"), "{}", a.evidence);
    r.integration = Ok(Integrated::Measured {
        trunk,
        integration: Integration::Missing {
            paths: vec!["a".into()],
            ahead: vec![],
            ahead_count: 1,
            searched_only: Some(2000),
        },
    });
    let a = answer(&r, "integrated");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("trunk's 2000 newest first-parent commits"), "{}", a.evidence);
    assert_eq!(a.details["squash_search_stopped_after"], 2000);
}

#[test]
fn a_squash_merge_held_by_an_earlier_trunk_commit_is_integrated_and_names_that_commit() {
    let mut r = all_well();
    let trunk = trunk_at("refs/remotes/origin/main", 'f');
    let earlier = Integration::Holds { paths: 2, commit: "c".repeat(40), behind_tip: 3 };
    r.integration = Ok(Integrated::Measured { trunk, integration: earlier });
    let a = answer(&r, "integrated");
    assert_eq!(a.status, Status::Pass);
    assert!(
        a.evidence.contains("its commit cccccccccccc (3 commits before its tip) held all 2 paths"),
        "{}",
        a.evidence
    );
    assert_eq!(a.details["holding_commit"], "c".repeat(40));
}

#[test]
fn a_branch_tracking_a_gone_upstream_is_owed_and_named() {
    let mut r = all_well();
    r.branches = Ok(vec![Branch {
        name: "feature".into(),
        commit: "b".repeat(40),
        upstream: Some(Upstream { refname: "refs/remotes/origin/feature".into(), exists: false }),
    }]);
    let a = answer(&r, "upstream-alive");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("feature (tracks origin/feature)"), "{}", a.evidence);
}

#[test]
fn no_commit_since_the_start_is_nothing_measurable() {
    let mut r = all_well();
    r.commits_since_start = Ok((vec![], 0));
    r.bookkeeping.book = Ok(Default::default());
    let a = answer(&r, "measurable");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.starts_with("Nothing measurable"), "{}", a.evidence);
}

#[test]
fn every_answer_carries_a_source_evidence_and_a_remedy() {
    for r in [all_well(), nothing_read(TaskState::None)] {
        for a in answer_all(&r, &Policy::default()) {
            assert!(!a.source.is_empty() && !a.remedy.is_empty(), "{}", a.id);
            assert!(a.evidence.len() > a.status.as_str().len() + 10, "{}: {}", a.id, a.evidence);
            assert!(a.details.is_object(), "{}", a.id);
        }
    }
}

// ---- Verification: gates-green, extra questions, exemptions ----

mod verification {
    use super::*;
    use crate::verification::{GateReading, GateRuns, GateSet, RecordedRun, VerificationReadings};
    use majordomus_records::policy::{Exemption, ExtraQuestion, Gate};

    fn run(exit: i32, hash: &str) -> RecordedRun {
        RecordedRun {
            at: "2026-11-30T10:00:00Z".into(),
            task: Some("t".into()),
            exit,
            timed_out: false,
            duration_ms: 1200,
            commit: Some("c".repeat(40)),
            inputs_hash: hash.into(),
        }
    }

    /// A selected, required gate whose inputs hash `now`, with the runs the ledger holds of it.
    fn gate(id: &str, now: &str, latest: Option<RecordedRun>, current: Option<RecordedRun>) -> GateReading {
        GateReading {
            id: id.into(),
            required: true,
            always: false,
            inputs: vec![format!("{id}/**")],
            matched: vec![format!("{id}/changed.rs")],
            runs: Some(Ok(GateRuns { inputs_now: now.into(), files: 2, latest, current })),
        }
    }

    fn unselected(id: &str) -> GateReading {
        GateReading { matched: vec![], runs: None, ..gate(id, "h", None, None) }
    }

    fn with_gates(gates: Vec<GateReading>) -> Readings {
        let mut r = all_well();
        r.verification = VerificationReadings { gates: Ok(GateSet { changed: 2, gates }), gone: Ok(vec![]) };
        r
    }

    #[test]
    fn no_gate_declared_is_exempt() {
        let r = with_gates(vec![]);
        let a = answer(&r, "gates-green");
        assert_eq!(a.status, Status::Exempt);
        assert!(a.evidence.contains("No gate is declared"), "{}", a.evidence);
    }

    #[test]
    fn gates_not_read_are_unknown_never_a_pass() {
        let mut r = all_well();
        r.verification = VerificationReadings::default();
        assert_eq!(answer(&r, "gates-green").status, Status::Unknown);
    }

    #[test]
    fn gates_declared_but_none_selected_pass_and_say_why() {
        let r = with_gates(vec![unselected("unit"), unselected("docs")]);
        let a = answer(&r, "gates-green");
        assert_eq!(a.status, Status::Pass);
        assert_eq!(
            a.evidence,
            "No required gate is selected among the 2 declared gates: none of the 2 paths changed since the start matches their inputs (unit: unit/**; docs: docs/**) and none is marked always."
        );
        assert_eq!(a.details["gates"][0]["state"], "not selected");
    }

    #[test]
    fn a_selected_gate_that_never_reported_is_owed() {
        let a = answer(&with_gates(vec![gate("unit", "h1", None, None)]), "gates-green");
        assert_eq!(a.status, Status::Owed);
        assert!(a.evidence.contains("never reported is not green"), "{}", a.evidence);
        assert_eq!(a.remedy, "majordomus gate run unit");
    }

    #[test]
    fn a_gate_whose_inputs_changed_since_its_run_is_owed_named_stale_with_both_hashes() {
        let a = answer(
            &with_gates(vec![gate("unit", "bbbbbbbbbbbbbbbb", Some(run(0, "aaaaaaaaaaaaaaaa")), None)]),
            "gates-green",
        );
        assert_eq!(a.status, Status::Owed);
        assert!(a.evidence.contains("unit is stale: its inputs hashed aaaaaaaaaaaa at its last run"), "{}", a.evidence);
        assert!(a.evidence.contains("and hash bbbbbbbbbbbb now"), "{}", a.evidence);
    }

    #[test]
    fn a_gate_that_failed_over_the_inputs_now_is_refused_even_beside_owed_ones() {
        let failed = gate("unit", "h1", Some(run(101, "h1")), Some(run(101, "h1")));
        let a = answer(&with_gates(vec![failed, gate("docs", "h2", None, None)]), "gates-green");
        assert_eq!(a.status, Status::Refused);
        assert!(a.evidence.contains("unit failed over its inputs as they are now (exit 101"), "{}", a.evidence);
        assert_eq!(a.remedy, "fix what the gate unit reports, then majordomus gate run unit");
    }

    #[test]
    fn a_timed_out_run_is_a_failure_that_says_so() {
        let mut timed_out = run(143, "h1");
        timed_out.timed_out = true;
        let a = answer(&with_gates(vec![gate("unit", "h1", Some(timed_out.clone()), Some(timed_out))]), "gates-green");
        assert_eq!(a.status, Status::Refused);
        assert!(a.evidence.contains("unit timed out after 1 s"), "{}", a.evidence);
    }

    #[test]
    fn the_latest_run_over_the_inputs_now_decides_even_when_a_later_run_covered_other_inputs() {
        let g = gate("unit", "h1", Some(run(1, "h2")), Some(run(0, "h1")));
        assert_eq!(answer(&with_gates(vec![g]), "gates-green").status, Status::Pass);
    }

    #[test]
    fn a_ledger_that_cannot_be_read_is_unknown() {
        let mut g = gate("unit", "h1", None, None);
        g.runs = Some(Err(Unread::io(".ai/local/state/ledger.jsonl:3: not a ledger entry")));
        let a = answer(&with_gates(vec![g]), "gates-green");
        assert_eq!(a.status, Status::Unknown);
        assert!(a.evidence.contains("ledger.jsonl:3"), "{}", a.evidence);
    }

    #[test]
    fn evidence_counts_the_selected_gates_and_names_each() {
        let gates = vec![
            gate("unit", "h1", Some(run(0, "h1")), Some(run(0, "h1"))),
            gate("cases", "h2", None, None),
            gate("docs", "h3", Some(run(0, "h0")), None),
            unselected("bench"),
        ];
        let a = answer(&with_gates(gates), "gates-green");
        assert_eq!(a.status, Status::Owed);
        assert!(
            a.evidence.starts_with("3 gates selected: 1 passing, 1 never reported, 1 stale; unit passed"),
            "{}",
            a.evidence
        );
        for id in ["unit", "cases never reported", "docs is stale"] {
            assert!(a.evidence.contains(id), "{id}: {}", a.evidence);
        }
        assert_eq!(a.details["counts"], serde_json::json!({ "passing": 1, "never_reported": 1, "stale": 1 }));
        assert_eq!(a.details["selected"], serde_json::json!(["unit", "cases", "docs"]));
        assert_eq!(a.remedy, "majordomus gate run --all");
    }

    #[test]
    fn an_optional_gate_is_named_but_not_counted() {
        let mut lint = gate("lint", "h9", None, None);
        lint.required = false;
        let a =
            answer(&with_gates(vec![gate("unit", "h1", Some(run(0, "h1")), Some(run(0, "h1"))), lint]), "gates-green");
        assert_eq!(a.status, Status::Pass);
        assert!(a.evidence.contains("lint is selected but not required"), "{}", a.evidence);
    }

    #[test]
    fn a_gate_marked_always_is_selected_with_nothing_changed() {
        let mut g = gate("audit", "h1", None, None);
        g.matched.clear();
        g.always = true;
        assert_eq!(answer(&with_gates(vec![g]), "gates-green").status, Status::Owed);
    }

    fn policy_with_question() -> Policy {
        let mut p = Policy::default();
        p.gates.insert("docs".into(), Gate::new("mdbook test", &["docs/**"]));
        p.questions.push(ExtraQuestion {
            id: "documented".into(),
            stage: "documentation".into(),
            question: "Were the documents updated?".into(),
            gate: "docs".into(),
        });
        p
    }

    #[test]
    fn an_extra_question_follows_the_built_in_ones_and_takes_its_gates_verdict() {
        let p = policy_with_question();
        let r = with_gates(vec![gate("docs", "h1", Some(run(2, "h1")), Some(run(2, "h1")))]);
        let answers = answer_all(&r, &p);
        assert_eq!(answers.len(), QUESTIONS.len() + 1);
        let last = answers.last().expect("answers");
        assert_eq!(
            (last.id.as_str(), last.stage.as_str(), last.status),
            ("documented", "documentation", Status::Refused)
        );
        assert!(last.source.contains("gate docs"), "{}", last.source);
        let r = with_gates(vec![unselected("docs")]);
        let last = answer_all(&r, &p).pop().expect("answers");
        assert_eq!(last.status, Status::Pass);
        assert!(last.evidence.contains("not selected"), "{}", last.evidence);
    }

    #[test]
    fn an_extra_question_without_a_task_is_unknown() {
        let mut r = with_gates(vec![gate("docs", "h1", None, None)]);
        r.task = TaskState::None;
        let last = answer_all(&r, &policy_with_question()).pop().expect("answers");
        assert_eq!(last.status, Status::Unknown);
        assert_eq!(last.remedy, "majordomus start TASK");
    }

    fn exempt(question: &str, until: Option<(i32, u32, u32)>) -> Policy {
        let mut p = Policy::default();
        p.exempt.push(Exemption {
            question: question.into(),
            reason: "this repository has no forge".into(),
            until: until.and_then(|(y, m, d)| chrono::NaiveDate::from_ymd_opt(y, m, d)),
        });
        p
    }

    #[test]
    fn an_exemption_that_holds_answers_exempt_with_its_reason_and_keeps_what_was_measured() {
        let mut r = all_well();
        r.push = Ok(Push::Measured {
            against: "refs/remotes/origin/main".into(),
            how: "its upstream".into(),
            commits: vec!["d".repeat(40)],
            count: 1,
            since_start: Some((vec!["d".repeat(40)], 1)),
        });
        let p = exempt("pushed", Some((2026, 11, 30)));
        r.exemptions_at_start = Ok(Some(p.exempt.clone()));
        let a = answer_all(&r, &p).into_iter().find(|a| a.id == "pushed").expect("pushed");
        assert_eq!(a.status, Status::Exempt);
        assert_eq!(a.evidence, "Exempt by the policy until 2026-11-30: This repository has no forge.");
        assert_eq!(a.details["measured"]["status"], "owed");
        assert_eq!(a.details["exemption_added_since_start"], false);
    }

    #[test]
    fn an_exemption_added_since_the_start_still_exempts_and_says_it_is_new() {
        let mut r = all_well();
        r.tree = Ok(WorkingTree {
            dirty: vec![Dirty { path: "a.txt".into(), index: None, deleted: false }],
            ..WorkingTree::default()
        });
        let mut p = exempt("committed", None);
        p.exempt[0].reason = "later".into();
        let new = |r: &Readings, p: &Policy| answer_all(r, p).into_iter().find(|a| a.id == "committed").expect("it");
        // Not in the policy at the start.
        let a = new(&r, &p);
        assert_eq!(a.status, Status::Exempt);
        assert_eq!(a.evidence, "Exempted by a policy entry added since the task started: Later.");
        assert_eq!(a.details["exemption_added_since_start"], true);
        assert_eq!(a.details["measured"]["status"], "owed");
        // There at the start with another reason, or another date: new too.
        let mut then = p.exempt.clone();
        then[0].reason = "not yet".into();
        r.exemptions_at_start = Ok(Some(then));
        assert_eq!(new(&r, &p).details["exemption_added_since_start"], true);
        let mut then = p.exempt.clone();
        then[0].until = chrono::NaiveDate::from_ymd_opt(2026, 1, 1);
        r.exemptions_at_start = Ok(Some(then));
        assert_eq!(new(&r, &p).details["exemption_added_since_start"], true);
        // There at the start exactly as now: the usual evidence.
        r.exemptions_at_start = Ok(Some(p.exempt.clone()));
        let a = new(&r, &p);
        assert_eq!(a.evidence, "Exempt by the policy: Later.");
        assert_eq!(a.details["exemption_added_since_start"], false);
        // The policy at the start unread: not claimed to be new, and why is said.
        r.exemptions_at_start = Err(Unread::io("the start commit x is not in this repository"));
        let a = new(&r, &p);
        assert_eq!(a.status, Status::Exempt);
        assert_eq!(
            a.evidence,
            "Exempt by the policy: Later. (whether it was in the policy at the start could not be read: the start commit x is not in this repository)"
        );
        assert!(a.details.get("exemption_added_since_start").is_none(), "{}", a.details);
        assert_eq!(a.details["exemption_at_start_unread"], "the start commit x is not in this repository");
        // No task, no start to compare with: nothing said of it.
        r.task = TaskState::None;
        let a = answer_all(&r, &exempt("settled", None)).into_iter().find(|a| a.id == "settled").expect("settled");
        assert_eq!(a.evidence, "Exempt by the policy: This repository has no forge.");
        assert!(a.details.get("exemption_added_since_start").is_none(), "{}", a.details);
    }

    #[test]
    fn an_expired_exemption_no_longer_exempts_and_the_real_answer_says_so() {
        let mut r = all_well();
        r.stashes = Ok(vec![StashEntry { index: 0, commit: "c".repeat(40), message: "On main: wip".into() }]);
        let p = exempt("no-stash", Some((2026, 11, 29)));
        let a = answer_all(&r, &p).into_iter().find(|a| a.id == "no-stash").expect("no-stash");
        assert_eq!(a.status, Status::Owed);
        assert!(
            a.evidence.ends_with("The policy's exemption (\"this repository has no forge\") expired on 2026-11-29, so it no longer exempts."),
            "{}",
            a.evidence
        );
        assert_eq!(a.details["expired_exemption"]["until"], "2026-11-29");
    }

    #[test]
    fn an_exemption_applies_to_an_extra_question_too() {
        let mut p = policy_with_question();
        p.exempt = exempt("documented", None).exempt;
        let r = with_gates(vec![gate("docs", "h1", None, None)]);
        assert_eq!(answer_all(&r, &p).pop().expect("answers").status, Status::Exempt);
    }
}
