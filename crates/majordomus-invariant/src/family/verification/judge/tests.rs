//! The verification family judged over readings handed in directly: the
//! test-path rule, `regression-tested`, `gates-green`, and the policy's
//! extra questions, each answered by one gate.

use majordomus_readings::changes::ChangeSet;
use majordomus_readings::inputs::OffIndex;
use majordomus_readings::Unread;
use majordomus_records::policy::{Exemption, ExtraQuestion, Gate, Policy};
use majordomus_records::task::TaskState;

use crate::answer::Status;
use crate::done::answer_all;
use crate::family::verification::readings::{GateReading, GateRuns, GateSet, RecordedRun};
use crate::family::verification::VerificationReadings;
use crate::fixtures::{all_well, answer};
use crate::question::QUESTIONS;
use crate::readings::Readings;

#[test]
fn a_change_without_a_test_owes_regression_tested_and_no_change_is_exempt() {
    let mut r = all_well();
    r.changes = Ok(ChangeSet { changed: vec!["src/lib.rs".into()], ..ChangeSet::default() });
    assert_eq!(answer(&r, "regression-tested").status, Status::Owed);
    r.changes = Ok(ChangeSet::default());
    assert_eq!(answer(&r, "regression-tested").status, Status::Exempt);
}

#[test]
fn test_code_inside_a_changed_file_passes_regression_tested_naming_the_item() {
    use crate::family::verification::test_code::changed::TestCode;
    let mut r = all_well();
    r.changes = Ok(ChangeSet { changed: vec!["src/lib.rs".into(), "src/big.rs".into()], ..ChangeSet::default() });
    r.verification.test_code = Ok(Some(TestCode {
        touched: vec![("src/lib.rs".into(), vec!["fn parses (#[test])".into()])],
        read: 1,
        not_read: vec![("src/big.rs".into(), "it was already changed at the start".into())],
        pytest: None,
        turned_off: vec![],
        moved: vec![],
    }));
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert_eq!(a.evidence, "The change adds or edits test code in 1 file: src/lib.rs (fn parses (#[test])).");
    assert_eq!(a.details["test_code"][0]["items"][0], "fn parses (#[test])");
    // Nothing touched: owed, naming the file not read and why.
    r.verification.test_code =
        Ok(Some(TestCode { touched: vec![], ..r.verification.test_code.clone().expect("set").expect("some") }));
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(
        a.evidence.contains("1 file was not read for test code (src/big.rs: it was already changed at the start)"),
        "{}",
        a.evidence
    );
    // A line read as only turning a test off is named by its place and words.
    r.verification.test_code = Ok(Some(TestCode {
        turned_off: vec![("src/lib.rs".into(), 9, "#[ignore]".into())],
        ..r.verification.test_code.clone().expect("set").expect("some")
    }));
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(
        a.evidence.contains("1 line was read as only turning a test off, which adds none, nor does a test under it: src/lib.rs:9 `#[ignore]`"),
        "{}",
        a.evidence
    );
    // Unread is never a pass.
    r.verification.test_code = Err(Unread::io("the test took no reading"));
    assert_eq!(answer(&r, "regression-tested").status, Status::Unknown);
}

#[test]
fn a_deleted_test_path_is_named_and_does_not_count_as_a_regression_test() {
    let mut r = all_well();
    r.changes = Ok(ChangeSet { changed: vec!["a.txt".into(), "tests/p_test.rs".into()], ..ChangeSet::default() });
    r.verification.gone = Ok(vec!["tests/p_test.rs".into()]);
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert_eq!(
        a.evidence,
        "None of the 2 paths changed since the start is a test path still there or holds an added or edited \
         test item (majordomus explain regression-tested lists what counts here) (1 test path deleted, and a \
         deleted test does not count: tests/p_test.rs)."
    );
    assert_eq!(a.details["deleted_tests"], serde_json::json!(["tests/p_test.rs"]));
    // Another test still there passes, and the deleted one is still named.
    r.changes = Ok(ChangeSet {
        changed: vec!["a.txt".into(), "tests/p_test.rs".into(), "tests/q_test.rs".into()],
        ..ChangeSet::default()
    });
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(a.evidence.contains("1 test path: tests/q_test.rs (1 test path deleted"), "{}", a.evidence);
    // Whether a test path is still there, unread, is never a pass.
    r.verification.gone = Err(Unread::io("the test took no reading"));
    assert_eq!(answer(&r, "regression-tested").status, Status::Unknown);
}

#[test]
fn a_test_in_a_path_acknowledged_as_a_peers_does_not_count_unless_the_tasks_commits_changed_it() {
    use crate::family::bookkeeping::made::Made;
    use crate::family::bookkeeping::readings::{Acked, TaskBook};
    use crate::family::verification::test_code::changed::TestCode;
    let mut r = all_well();
    r.changes = Ok(ChangeSet {
        changed: vec!["src/lib.rs".into(), "src/peer.rs".into(), "tests/fix_test.rs".into()],
        ..ChangeSet::default()
    });
    r.verification.test_code = Ok(Some(TestCode {
        touched: vec![("src/peer.rs".into(), vec!["fn peer (#[test])".into()])],
        ..TestCode::default()
    }));
    let ack = |question: &str, path: &str| Acked {
        question: question.into(),
        why: "a peer's".into(),
        evidence: vec![path.into()],
        content: Default::default(),
        at: "2026-12-07T05:00:00Z".into(),
    };
    r.bookkeeping.book = Ok(TaskBook {
        acks: vec![ack("no-untracked", "tests/fix_test.rs"), ack("committed", "src/peer.rs")],
        ..TaskBook::default()
    });
    r.bookkeeping.made = Some(Ok(Made::default()));
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(
        a.evidence
            .contains("acknowledged as not this task's work (majordomus ack), so no test of it: tests/fix_test.rs")
            && a.evidence.contains("so no test of it: src/peer.rs"),
        "{}",
        a.evidence
    );
    // What the task made cannot be read: the worker's word stands.
    r.bookkeeping.made = Some(Err(Unread::io("the test took no reading")));
    assert_eq!(answer(&r, "regression-tested").status, Status::Owed);
    // The task's own commits changed it: its test, whatever was acknowledged.
    r.bookkeeping.made = Some(Ok(Made { paths: ["tests/fix_test.rs".to_string()].into(), ..Made::default() }));
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(a.evidence.starts_with("The change touches 1 test path: tests/fix_test.rs"), "{}", a.evidence);
}

#[test]
fn a_test_path_holding_what_a_test_path_held_at_the_start_is_named_and_does_not_count() {
    let mut r = all_well();
    r.changes = Ok(ChangeSet {
        changed: vec!["a.txt".into(), "tests/old.rs".into(), "tests/renamed.rs".into()],
        ..ChangeSet::default()
    });
    r.verification.gone = Ok(vec!["tests/old.rs".into()]);
    r.verification.not_new =
        Ok([("tests/renamed.rs".into(), super::NotNew::Holds("tests/old.rs".into()))].into_iter().collect());
    let a = answer(&r, "regression-tested");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("tests/renamed.rs (the content tests/old.rs held)"), "{}", a.evidence);
    // Unread, it is never a pass.
    r.verification.not_new = Err(Unread::io("the test took no reading"));
    assert_eq!(answer(&r, "regression-tested").status, Status::Unknown);
}

fn run(exit: i32, hash: &str) -> RecordedRun {
    RecordedRun {
        at: "2026-11-30T10:00:00Z".into(),
        task: Some("t".into()),
        exit,
        timed_out: false,
        duration_ms: 1200,
        commit: Some("c".repeat(40)),
        inputs_hash: hash.into(),
        environment: Some(crate::fixtures::environment()),
    }
}

/// A selected, required gate whose inputs hash `now`, with the runs the ledger holds of it.
fn gate(id: &str, now: &str, latest: Option<RecordedRun>, current: Option<RecordedRun>) -> GateReading {
    GateReading {
        id: id.into(),
        run: format!("make {id}"),
        required: true,
        always: false,
        inputs: vec![format!("{id}/**")],
        matched: vec![format!("{id}/changed.rs")],
        runs: Some(Ok(GateRuns {
            inputs_now: now.into(),
            files: 2,
            latest,
            current,
            unseen: Vec::new(),
            off_record: Vec::new(),
            off_index: Vec::new(),
            left: Vec::new(),
        })),
    }
}

fn unselected(id: &str) -> GateReading {
    GateReading { matched: vec![], runs: None, ..gate(id, "h", None, None) }
}

fn with_gates(gates: Vec<GateReading>) -> Readings {
    let mut r = all_well();
    r.verification = VerificationReadings { gates: Ok(GateSet { changed: 2, gates }), ..all_well().verification };
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
    r.verification = VerificationReadings::unread(&Unread::io("the test took no reading"));
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
fn a_gate_no_change_selects_that_failed_over_the_inputs_now_is_refused_and_said_apart() {
    let known = GateReading { matched: vec![], ..gate("unit", "h1", Some(run(1, "h1")), Some(run(1, "h1"))) };
    assert!(known.known_failing());
    let a = answer(&with_gates(vec![known.clone(), unselected("docs")]), "gates-green");
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.starts_with("1 gate selected or known to fail: 1 failed; unit failed over"), "{}", a.evidence);
    assert!(a.evidence.contains("selected by no change since the start, but a failure"), "{}", a.evidence);
    assert_eq!(a.details["gates"][0]["known_failing"], true);
    assert_eq!(a.remedy, "fix what the gate unit reports, then majordomus gate run unit");
    // Not required: not counted, as a selected one would not be.
    let optional = GateReading { required: false, ..known };
    assert_eq!(answer(&with_gates(vec![optional]), "gates-green").status, Status::Pass);
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
    let a = answer(&with_gates(vec![gate("unit", "h1", Some(run(0, "h1")), Some(run(0, "h1"))), lint]), "gates-green");
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
    assert_eq!((last.id.as_str(), last.stage.as_str(), last.status), ("documented", "documentation", Status::Refused));
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

#[test]
fn an_exemption_applies_to_an_extra_question_too() {
    let mut p = policy_with_question();
    p.exempt.push(Exemption { question: "documented".into(), reason: "no documents here".into(), until: None });
    let r = with_gates(vec![gate("docs", "h1", None, None)]);
    assert_eq!(answer_all(&r, &p).pop().expect("answers").status, Status::Exempt);
}

fn passing(id: &str, environment: Option<majordomus_records::ledger::Environment>) -> GateReading {
    let mut r = run(0, "h1");
    r.environment = environment;
    gate(id, "h1", Some(r.clone()), Some(r))
}

#[test]
fn a_pass_recorded_under_another_path_is_owed_naming_it_with_the_command_to_run_it_as_at_the_start() {
    let mut env = crate::fixtures::environment();
    env.insert("PATH".into(), Some("/tmp/fake:/usr/bin:/bin".into()));
    env.insert("BASH_ENV".into(), Some("/tmp/exit0.sh".into()));
    let a = answer(&with_gates(vec![passing("unit", Some(env))]), "gates-green");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(
        a.evidence.starts_with("1 gate selected: 1 other environment; unit passed over its inputs"),
        "{}",
        a.evidence
    );
    assert!(
        a.evidence.contains("but its run's PATH and BASH_ENV differ from the start's, so the pass is not counted"),
        "{}",
        a.evidence
    );
    assert_eq!(
        a.remedy,
        "run it again from the environment the task started in (PATH and BASH_ENV as at the start): \
         env -u BASH_ENV PATH='/usr/bin:/bin' majordomus gate run unit"
    );
    assert_eq!(a.details["gates"][0]["environment_differs"], serde_json::json!(["PATH", "BASH_ENV"]));
    // The same run under the start's values is the gate's pass.
    assert_eq!(
        answer(&with_gates(vec![passing("unit", Some(crate::fixtures::environment()))]), "gates-green").status,
        Status::Pass
    );
}

#[test]
fn a_pass_recorded_without_its_environment_is_owed_and_one_without_a_start_environment_unknown() {
    let a = answer(&with_gates(vec![passing("unit", None)]), "gates-green");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("recorded without the environment that chose its programs"), "{}", a.evidence);
    assert_eq!(a.remedy, "majordomus gate run unit");
    let mut r = with_gates(vec![passing("unit", Some(crate::fixtures::environment()))]);
    let mut record = crate::fixtures::record();
    record.snapshot.gate_environment = None;
    r.task = TaskState::Active(Box::new(record));
    let a = answer(&r, "gates-green");
    assert_eq!(a.status, Status::Unknown, "{}", a.evidence);
    assert!(a.evidence.contains("the task record holds no start environment"), "{}", a.evidence);
    assert!(a.remedy.starts_with("finish the task and start it again"), "{}", a.remedy);
    // A failure is a failure, whatever the environment.
    let mut failed = run(1, "h1");
    failed.environment = None;
    let a = answer(&with_gates(vec![gate("unit", "h1", Some(failed.clone()), Some(failed))]), "gates-green");
    assert_eq!(a.status, Status::Refused);
}

#[test]
fn an_extra_question_does_not_count_a_pass_under_another_environment_either() {
    let mut env = crate::fixtures::environment();
    env.insert("SHELL".into(), None);
    let r = with_gates(vec![passing("docs", Some(env))]);
    let last = answer_all(&r, &policy_with_question()).pop().expect("answers");
    assert_eq!(last.status, Status::Owed, "{}", last.evidence);
    assert_eq!(last.remedy, "env SHELL='/bin/bash' majordomus gate run docs");
}

#[test]
fn a_pass_recorded_under_a_test_runners_option_variable_or_a_familys_member_is_owed_naming_it() {
    let mut env = crate::fixtures::environment();
    env.insert("MAKEFLAGS".into(), Some("n".into()));
    env.insert("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER".into(), Some("true".into()));
    let a = answer(&with_gates(vec![passing("unit", Some(env))]), "gates-green");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(
        a.evidence.contains("its run's MAKEFLAGS and CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER differ"),
        "{}",
        a.evidence
    );
    assert!(
        a.remedy.ends_with("env -u MAKEFLAGS -u CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER majordomus gate run unit"),
        "{}",
        a.remedy
    );
    // A start recorded before these were is compared on the first four:
    // the same run under its PATH is the gate's pass.
    let mut run = crate::fixtures::environment();
    run.insert("GOFLAGS".into(), Some("-mod=mod".into()));
    let mut r = with_gates(vec![passing("unit", Some(run))]);
    assert_eq!(answer(&r, "gates-green").status, Status::Owed, "GOFLAGS differs under a start that recorded it");
    let mut record = crate::fixtures::record();
    let env = record.snapshot.gate_environment.as_mut().expect("a start environment");
    env.retain(|name, _| ["PATH", "BASH_ENV", "ENV", "SHELL"].contains(&name.as_str()));
    r.task = TaskState::Active(Box::new(record));
    assert_eq!(answer(&r, "gates-green").status, Status::Pass);
}

#[test]
fn the_files_a_gates_command_names_that_changed_since_the_start_are_named_beside_its_verdict() {
    let mut g = passing("unit", Some(crate::fixtures::environment()));
    g.run = "bash ./ci/check.sh --config=ci/conf.toml && cargo test".into();
    let mut r = with_gates(vec![g]);
    r.changes = Ok(ChangeSet {
        changed: vec!["ci/check.sh".into(), "ci/conf.toml".into(), "src/lib.rs".into()],
        ..ChangeSet::default()
    });
    let a = answer(&r, "gates-green");
    assert_eq!(a.status, Status::Pass, "named, not judged: {}", a.evidence);
    assert!(
        a.evidence.contains("(its command names ci/check.sh, ci/conf.toml, changed since the start)"),
        "{}",
        a.evidence
    );
    assert_eq!(a.details["commands_name_changed"]["unit"], serde_json::json!(["ci/check.sh", "ci/conf.toml"]));
    r.changes = Ok(ChangeSet { changed: vec!["src/lib.rs".into()], ..ChangeSet::default() });
    assert!(!answer(&r, "gates-green").evidence.contains("its command names"));
}

#[test]
fn the_files_the_runner_a_gates_command_names_reads_that_changed_are_named_beside_its_verdict() {
    let changed =
        |paths: &[&str]| Ok(ChangeSet { changed: paths.iter().map(|p| (*p).into()).collect(), ..ChangeSet::default() });
    let mut g = passing("unit", Some(crate::fixtures::environment()));
    g.run = "npm test && python3 -m pytest -q".into();
    let mut r = with_gates(vec![g]);
    // Sorted, as the change set is.
    r.changes = changed(&["Cargo.toml", "package.json", "src/a.js", "tests/conftest.py", "tests/not_conftest.py"]);
    let a = answer(&r, "gates-green");
    assert_eq!(a.status, Status::Pass, "named, not judged: {}", a.evidence);
    assert!(
        a.evidence
            .contains("(the runner its command names reads package.json, tests/conftest.py, changed since the start)"),
        "{}",
        a.evidence
    );
    assert_eq!(a.details["commands_name_changed"]["unit"], serde_json::json!(["package.json", "tests/conftest.py"]));
    // A script the command names and a runner's file, each said as such.
    r.verification.gates.as_mut().expect("gates").gates[0].run = "bash ci/check.sh && /usr/bin/make test".into();
    r.changes = changed(&["ci/check.sh", "sub/Makefile"]);
    assert!(
        answer(&r, "gates-green").evidence.contains(
            "(its command names ci/check.sh, and the runner its command names reads sub/Makefile, changed since the start)"
        ),
        "{}",
        answer(&r, "gates-green").evidence
    );
    // A makefile the Makefile includes; the module `-m` runs, shadowing the
    // standard library's from the repository's root.
    r.verification.gates.as_mut().expect("gates").gates[0].run = "make -s test && python3.12 -m unittest -q".into();
    r.changes = changed(&["mk/test.mk", "src/unittest.rs", "unittest/__main__.py"]);
    assert!(
        answer(&r, "gates-green")
            .evidence
            .contains("(the runner its command names reads mk/test.mk, unittest/__main__.py, changed since the start)"),
        "{}",
        answer(&r, "gates-green").evidence
    );
}

/// A gate whose runs are `runs`, changed by `edit`.
fn gate_with(
    edit: impl FnOnce(&mut GateRuns),
    latest: Option<RecordedRun>,
    current: Option<RecordedRun>,
) -> GateReading {
    let mut g = gate("unit", "h1", latest, current);
    if let Some(Ok(runs)) = &mut g.runs {
        edit(runs);
    }
    g
}

/// No run over the inputs as the index holds them, and a changed input
/// holds on disk other content than its blob: owed, naming it, with the
/// way to commit what is on disk (test/cases/522).
#[test]
fn a_changed_input_whose_content_on_disk_is_not_its_blob_is_owed_with_renormalize() {
    let off = |r: &mut GateRuns| r.off_index = vec![OffIndex { path: "src/lib.rs".into(), filter: None }];
    let r = with_gates(vec![gate_with(off, Some(run(0, "h0")), None)]);
    let a = answer(&r, "gates-green");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence.contains("other content than the blob git records") && a.evidence.contains("src/lib.rs"),
        "{}",
        a.evidence
    );
    assert!(a.remedy.contains("git add --renormalize src/lib.rs"), "{}", a.remedy);
}

/// A pass that read a file the start tracked and the commit no longer
/// holds is owed, naming it (test/cases/523).
#[test]
fn a_pass_over_a_file_the_start_tracked_and_the_commit_lacks_is_owed() {
    let left = |r: &mut GateRuns| r.left = vec!["src/table.txt".into()];
    let r = with_gates(vec![gate_with(left, Some(run(0, "h1")), Some(run(0, "h1")))]);
    let a = answer(&r, "gates-green");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("no longer holds it: src/table.txt"), "{}", a.evidence);
    assert!(a.remedy.contains("rm src/table.txt"), "{}", a.remedy);
}
