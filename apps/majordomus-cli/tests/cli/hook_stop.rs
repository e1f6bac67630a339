//! `majordomus hook stop`, fed the payloads Claude Code and Codex send.

use crate::common::{guard, guards, parse_hook_output, Case};
use crate::snapshot_run;

#[test]
fn with_no_task_a_claude_stop_is_allowed_silently() {
    let case = Case::new();
    let run = case.md_with(&["hook", "stop", "--agent", "claude"], Some(&case.payload("claude-stop.json")), &[]);
    assert_eq!(parse_hook_output(&run), None);
    snapshot_run!("stop_claude_no_task", case.snapshot(&run));
    assert_eq!(guards(&case), [], "nothing to count without a task");
}

#[test]
fn with_no_task_a_codex_stop_is_answered_with_an_empty_object() {
    let case = Case::new();
    let run = case.md_with(&["hook", "stop", "--agent", "codex"], Some(&case.payload("codex-stop.json")), &[]);
    assert_eq!(parse_hook_output(&run), Some(serde_json::json!({})));
    snapshot_run!("stop_codex_no_task", case.snapshot(&run));
}

#[test]
fn outside_a_repository_the_stop_is_allowed_silently() {
    let case = Case::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let payload = case
        .payload("claude-stop.json")
        .replace(&case.path().display().to_string(), &elsewhere.path().display().to_string());
    let run = case.run(elsewhere.path(), &["hook", "stop"], Some(&payload), &[]);
    assert_eq!(parse_hook_output(&run), None);
}

#[test]
fn a_payload_cwd_that_is_missing_or_in_no_repository_falls_back_to_the_directory_the_hook_runs_in() {
    let case = Case::new();
    case.start("fix the parser");
    let elsewhere = tempfile::tempdir().unwrap();
    for cwd in ["/nonexistent/x".to_string(), elsewhere.path().display().to_string()] {
        let payload = serde_json::json!({ "cwd": cwd }).to_string();
        let run = case.md_with(&["hook", "stop"], Some(&payload), &[]);
        let out = parse_hook_output(&run).unwrap_or_else(|| panic!("a verdict for cwd {cwd}: {}", run.stdout));
        assert_eq!(out["decision"], "block", "cwd {cwd}: {out}");
    }
}

#[test]
fn an_open_invariant_blocks_a_claude_stop_with_a_reason_for_the_agent() {
    let case = Case::new();
    case.start("fix the parser");
    let run = case.md_with(&["hook", "stop", "--agent", "claude"], Some(&case.payload("claude-stop.json")), &[]);
    let out = parse_hook_output(&run).expect("a verdict");
    assert_eq!(out["decision"], "block");
    let reason = out["reason"].as_str().unwrap();
    let check = case.md(&["check"]);
    let done_line = check.stdout.lines().last().unwrap();
    assert!(reason.contains(done_line), "the reason carries check's done line:\n{reason}");
    snapshot_run!("stop_claude_not_complete", case.snapshot(&run));
    snapshot_run!("stop_claude_not_complete_reason", case.redact(reason));
}

/// A task whose first stop was blocked (a guard counting 1), then done:
/// committed with a test, and the forge observed since the start.
fn done_after_one_block() -> Case {
    let case = Case::new();
    // This repository's forge is observed by typing its observations in.
    case.repo.write(".ai/repo/majordomus.toml", "[forge]\nprovider = \"recorded\"\n");
    case.repo.commit_all("the policy");
    case.start("add a parser");
    let blocked = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    assert_eq!(parse_hook_output(&blocked).expect("a verdict")["decision"], "block");
    case.repo.write("src/parser.rs", "fn parse() {}\n");
    case.repo.write("tests/parser.rs", "#[test] fn parses() {}\n");
    case.repo.commit_all("parser");
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let observation = case.path().parent().unwrap().join("forge.json");
    std::fs::write(
        &observation,
        format!(r#"{{"schema":"majordomus/forge/v1","observed_at":"{now}","repository":"o/r","pull_requests":[],"issues":[]}}"#),
    )
    .unwrap();
    assert_eq!(case.md(&["forge", "record", observation.to_str().unwrap()]).code, 0);
    assert_eq!(case.md(&["check"]).code, 0, "{}", case.md(&["check"]).stdout);
    case
}

#[test]
fn a_complete_invariant_lets_the_stop_through_for_either_host_and_resets_the_count() {
    let case = done_after_one_block();
    let claude = case.md_with(&["hook", "stop", "--agent", "claude"], Some(&case.payload("claude-stop.json")), &[]);
    assert_eq!(claude.code, 0);
    assert_eq!(parse_hook_output(&claude), None, "a complete invariant blocks nothing: {}", claude.stdout);
    assert_eq!(guard(&case, "claude-main-"), 0, "the count of blocks starts over");
    let codex = case.md_with(&["hook", "stop", "--agent", "codex"], Some(&case.payload("codex-stop.json")), &[]);
    assert_eq!(parse_hook_output(&codex), Some(serde_json::json!({})));
    snapshot_run!("stop_claude_complete", case.snapshot(&claude));
    snapshot_run!("stop_codex_complete", case.snapshot(&codex));
}

/// A guard replaced is a new file (written beside it, then renamed over
/// it), so the same inode, times and bytes are the same file, not rewritten.
#[test]
fn a_stop_that_counts_no_block_after_one_that_counted_none_leaves_the_guard_file_as_it_is() {
    use std::os::unix::fs::MetadataExt;
    let case = done_after_one_block();
    let stop = || case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    assert_eq!(parse_hook_output(&stop()), None, "a complete invariant blocks nothing");
    assert_eq!(guard(&case, "claude-main-"), 0, "the count of 1 starts over: the guard is written");
    let dir = case.path().join(".ai/local/state/hook");
    let file = std::fs::read_dir(&dir).unwrap().next().expect("the guard").unwrap().path();
    let seen = |path: &std::path::Path| {
        let m = std::fs::symlink_metadata(path).expect("the guard is there");
        (m.ino(), m.mtime(), m.mtime_nsec(), m.ctime(), m.ctime_nsec(), std::fs::read(path).unwrap())
    };
    let before = seen(&file);
    let document = seen(&case.path().join(".ai/local/state/gates.completion.json")).0;
    assert_eq!(parse_hook_output(&stop()), None);
    assert_eq!(seen(&file), before, "the guard said the same and was rewritten all the same");
    assert_eq!(guards(&case).len(), 1, "{:?}", guards(&case));
    assert_ne!(
        seen(&case.path().join(".ai/local/state/gates.completion.json")).0,
        document,
        "the stop wrote its measurement as check does"
    );
    // A block counted is written again: the guard is not left stale.
    case.repo.write("src/more.rs", "fn more() {}\n");
    assert_eq!(parse_hook_output(&stop()).expect("a verdict")["decision"], "block");
    assert_eq!(guard(&case, "claude-main-"), 1);
    assert_ne!(seen(&file).0, before.0, "the block counted is a new guard file");
}

#[test]
fn an_open_invariant_blocks_a_codex_stop_the_same_way() {
    let case = Case::new();
    case.start("fix the parser");
    case.repo.write("src/parser.rs", "fn parse() {}\n");
    let run = case.md_with(&["hook", "stop", "--agent", "codex"], Some(&case.payload("codex-stop.json")), &[]);
    let out = parse_hook_output(&run).expect("a verdict");
    assert_eq!(out["decision"], "block");
    assert_eq!(out.as_object().unwrap().len(), 2, "decision and reason only: {out}");
    assert!(out["reason"].as_str().unwrap().contains("src/parser.rs"), "{out}");
    snapshot_run!("stop_codex_not_complete", case.snapshot(&run));
}

/// Claude Code lists a subagent running in the background among the
/// session's background tasks, itself included at its own SubagentStop:
/// that is no pause, the subagent's stop is judged.
#[test]
fn a_subagent_stop_is_answered_like_a_stop() {
    let case = Case::new();
    case.start("fix the parser");
    let run = case.md_with(&["hook", "stop"], Some(&case.payload("claude-subagent-stop.json")), &[]);
    assert_eq!(parse_hook_output(&run).expect("a verdict")["decision"], "block");
}

#[test]
fn a_codex_subagent_stop_is_answered_within_codexs_schema() {
    let case = Case::new();
    case.start("fix the parser");
    let args = ["hook", "stop", "--agent", "codex"];
    let run = case.md_with(&args, Some(&case.payload("codex-subagent-stop.json")), &[]);
    let out = parse_hook_output(&run).expect("a verdict");
    assert_eq!(out["decision"], "block");
    assert_eq!(guard(&case, "codex-subagent-"), 1);
    snapshot_run!("stop_codex_subagent_not_complete", case.snapshot(&run));
}

#[test]
fn a_subagents_stops_count_their_blocks_apart_from_the_main_agents() {
    let case = Case::new();
    case.start("fix the parser");
    for _ in 0..2 {
        let run = case.md_with(&["hook", "stop"], Some(&case.payload("claude-subagent-stop.json")), &[]);
        assert_eq!(parse_hook_output(&run).expect("a verdict")["decision"], "block");
    }
    assert_eq!(guard(&case, "claude-subagent-"), 2);
    assert_eq!(guards(&case).len(), 1, "a subagent's stops spent the main count: {:?}", guards(&case));
    let main = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    assert_eq!(parse_hook_output(&main).expect("a verdict")["decision"], "block");
    assert_eq!((guard(&case, "claude-main-"), guard(&case, "claude-subagent-")), (1, 2));
}

#[test]
fn parallel_subagents_and_each_session_and_host_have_a_guard_of_their_own() {
    let case = Case::new();
    case.repo.write(".ai/repo/majordomus.toml", "[hook]\nblock_limit = 2\n");
    case.repo.commit_all("policy");
    case.start("fix the parser");
    let with = |fixture: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut value: serde_json::Value = serde_json::from_str(&case.payload(fixture)).unwrap();
        edit(&mut value);
        value.to_string()
    };
    let stop = |agent: &str, payload: &str| {
        let run = case.md_with(&["hook", "stop", "--agent", agent], Some(payload), &[]);
        parse_hook_output(&run).expect("an answer")
    };
    // Claude Code's main agent reaches its limit...
    let claude = case.payload("claude-stop.json");
    assert_eq!(stop("claude", &claude)["decision"], "block");
    assert_eq!(stop("claude", &claude)["decision"], "block");
    // ...which lets neither Codex, nor another Claude Code session, nor a subagent through.
    assert_eq!(stop("codex", &case.payload("codex-stop.json"))["decision"], "block", "another host");
    let other_session = with("claude-stop.json", &|v| v["session_id"] = "another-session".into());
    assert_eq!(stop("claude", &other_session)["decision"], "block", "another session");
    let first = case.payload("claude-subagent-stop.json");
    let second = with("claude-subagent-stop.json", &|v| {
        v["agent_id"] = "b52e90".into();
        v["background_tasks"][0]["id"] = "b52e90".into();
    });
    for _ in 0..2 {
        assert_eq!(stop("claude", &first)["decision"], "block", "a subagent");
    }
    assert_eq!(stop("claude", &second)["decision"], "block", "a parallel subagent counts apart");
    let codex_sub = case.payload("codex-subagent-stop.json");
    assert_eq!(stop("codex", &codex_sub)["decision"], "block", "a Codex subagent");
    // Each of them at its own limit now.
    assert!(stop("claude", &claude)["systemMessage"].as_str().unwrap().contains("after 2 blocks in a row"));
    assert!(stop("claude", &first)["systemMessage"].as_str().unwrap().contains("after 2 blocks in a row"));
    assert_eq!(stop("claude", &second)["decision"], "block", "its second block");
    assert_eq!(guards(&case).len(), 6, "{:?}", guards(&case));
}

#[test]
fn an_agent_continuing_with_nothing_changed_is_let_through_with_what_is_owed() {
    let case = Case::new();
    case.start("fix the parser");
    let first = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    assert_eq!(parse_hook_output(&first).expect("a verdict")["decision"], "block");
    let again = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop-active.json")), &[]);
    let out = parse_hook_output(&again).expect("a message");
    assert_eq!(out.get("decision"), None, "{out}");
    assert!(out["systemMessage"].as_str().unwrap().contains("nothing changed"), "{out}");
    snapshot_run!("stop_claude_active_unchanged", case.snapshot(&again));

    // Codex says it the same way, in its own protocol.
    let codex = &["hook", "stop", "--agent", "codex"];
    let blocked = case.md_with(codex, Some(&case.payload("codex-stop.json")), &[]);
    assert_eq!(parse_hook_output(&blocked).expect("a verdict")["decision"], "block");
    let again = case.md_with(codex, Some(&case.payload("codex-stop-active.json")), &[]);
    let out = parse_hook_output(&again).expect("a message");
    assert!(out["systemMessage"].as_str().unwrap().contains("nothing changed"), "{out}");
    snapshot_run!("stop_codex_active_unchanged", case.snapshot(&again));

    // Something changed (a commit): the agent is held to it again.
    let blocked = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    assert_eq!(parse_hook_output(&blocked).expect("a verdict")["decision"], "block");
    case.repo.write("src/lib.rs", "pub fn f() {}\n");
    case.repo.commit_all("work");
    let changed =
        case.md_with(&["hook", "stop", "--agent", "codex"], Some(&case.payload("codex-stop-active.json")), &[]);
    assert_eq!(parse_hook_output(&changed).expect("a verdict")["decision"], "block");
}

#[test]
fn past_the_block_limit_the_stop_is_let_through() {
    let case = Case::new();
    case.repo.write(".ai/repo/majordomus.toml", "[hook]\nblock_limit = 2\n");
    case.repo.commit_all("policy");
    case.start("fix the parser");
    for (agent, fixture) in [("claude", "claude-stop.json"), ("codex", "codex-stop.json")] {
        let args = ["hook", "stop", "--agent", agent];
        let payload = case.payload(fixture);
        for n in 1..=2 {
            let run = case.md_with(&args, Some(&payload), &[]);
            let out = parse_hook_output(&run).expect("a verdict");
            assert_eq!(out["decision"], "block", "{agent}: block {n}");
            assert!(out["reason"].as_str().unwrap().contains(&format!("block {n} of 2")), "{out}");
        }
        let run = case.md_with(&args, Some(&payload), &[]);
        let out = parse_hook_output(&run).expect("a message");
        assert!(out["systemMessage"].as_str().unwrap().contains("after 2 blocks in a row"), "{out}");
        snapshot_run!(format!("stop_{agent}_block_limit"), case.snapshot(&run));
        assert_eq!(guard(&case, &format!("{agent}-main-")), 0, "letting the stop through ends the run of blocks");
    }
}

#[test]
fn an_agent_continuing_after_an_unstaged_edit_to_a_file_already_dirty_is_blocked_again() {
    let case = Case::new();
    case.start("fix the parser");
    case.repo.write("README", "hello\nedited\n");
    let first = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    let out = parse_hook_output(&first).expect("a verdict");
    assert!(out["reason"].as_str().unwrap().contains("1. committed (owed"), "{out}");
    // More of the same edit, not staged: the done line, HEAD and index are as they were.
    case.repo.write("README", "hello\nedited\nand edited again\n");
    let again = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop-active.json")), &[]);
    let out = parse_hook_output(&again).expect("a verdict");
    assert_eq!(out["decision"], "block", "the working tree changed, so the agent is held to the work: {out}");
    assert!(out["reason"].as_str().unwrap().contains("block 2 of 3"), "{out}");
}

#[test]
fn an_agent_continuing_after_editing_a_file_already_untracked_is_blocked_again() {
    let case = Case::new();
    case.start("fix the parser");
    case.repo.write("notes.txt", "one\n");
    let first = case.md_with(&["hook", "stop", "--agent", "codex"], Some(&case.payload("codex-stop.json")), &[]);
    assert_eq!(parse_hook_output(&first).expect("a verdict")["decision"], "block");
    case.repo.write("notes.txt", "two\n");
    let again = case.md_with(&["hook", "stop", "--agent", "codex"], Some(&case.payload("codex-stop-active.json")), &[]);
    assert_eq!(parse_hook_output(&again).expect("a verdict")["decision"], "block", "{}", again.stdout);
    // Nothing more changed: now the retry goes through.
    let unchanged =
        case.md_with(&["hook", "stop", "--agent", "codex"], Some(&case.payload("codex-stop-active.json")), &[]);
    let out = parse_hook_output(&unchanged).expect("a message");
    assert!(out["systemMessage"].as_str().unwrap().contains("nothing changed"), "{out}");
}

#[test]
fn a_crash_inside_majordomus_blocks_the_stop_once_and_says_why() {
    let case = Case::new();
    case.start("fix the parser");
    for (agent, fixture) in [("claude", "claude-stop.json"), ("codex", "codex-stop.json")] {
        let run = case.md_with(
            &["hook", "stop", "--agent", agent],
            Some(&case.payload(fixture)),
            &[("MAJORDOMUS_HOOK_FAULT", "panic")],
        );
        let out = parse_hook_output(&run).expect("a verdict");
        assert_eq!(out["decision"], "block", "a crash is no way out: {out}");
        assert!(out["reason"].as_str().unwrap().contains("crashed"), "{out}");
        snapshot_run!(format!("stop_{agent}_crash"), case.snapshot(&run));
        // The stop that comes of that block goes through, saying why.
        let mut again: serde_json::Value = serde_json::from_str(&case.payload(fixture)).unwrap();
        again["stop_hook_active"] = serde_json::Value::Bool(true);
        let run = case.md_with(
            &["hook", "stop", "--agent", agent],
            Some(&again.to_string()),
            &[("MAJORDOMUS_HOOK_FAULT", "panic")],
        );
        let out = parse_hook_output(&run).expect("a message");
        assert_eq!(out.get("decision"), None, "{out}");
        assert!(out["systemMessage"].as_str().unwrap().contains("crashed"), "{out}");
    }
}

#[test]
fn a_spent_time_budget_leaves_the_readings_unknown_and_blocks_saying_so() {
    let case = Case::new();
    case.start("fix the parser");
    let run = case.md_with(&["hook", "stop", "--budget-ms", "0"], Some(&case.payload("claude-stop.json")), &[]);
    let out = parse_hook_output(&run).expect("a verdict");
    assert_eq!(out["decision"], "block", "an invariant not measured is not complete: {out}");
    let text = out["reason"].as_str().unwrap();
    assert!(text.contains("The time budget of 0 ms ran out, so these questions were not measured"), "{text}");
    assert!(text.contains("committed") && text.contains("settled"), "the readings cut off are named: {text}");
    assert!(text.contains("Run `majordomus check` to measure them fully"), "{text}");
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(case.path().join(".ai/local/state/gates.completion.json")).unwrap())
            .unwrap();
    let settled = doc["questions"].as_array().unwrap().iter().find(|q| q["id"] == "settled").unwrap();
    assert_eq!(settled["status"], "unknown");
    assert_eq!(settled["details"]["unread"], "the time budget of 0 ms ran out before this was read");
    assert_eq!(settled["details"]["unread_kind"], "budget");
    snapshot_run!("stop_claude_budget_spent", case.snapshot(&run));
}

#[test]
fn a_spent_time_budget_blocks_a_codex_stop_too_until_the_block_limit() {
    let case = Case::new();
    case.start("fix the parser");
    let args = ["hook", "stop", "--agent", "codex", "--budget-ms", "0"];
    let run = case.md_with(&args, Some(&case.payload("codex-stop.json")), &[]);
    let out = parse_hook_output(&run).expect("a verdict");
    assert_eq!(out["decision"], "block", "{out}");
    assert!(out["reason"].as_str().unwrap().contains("were not measured"), "{out}");
    snapshot_run!("stop_codex_budget_spent", case.snapshot(&run));
    // Nothing measured cannot be found unchanged, so the limit is what ends the loop.
    for n in 2..=3 {
        let again = case.md_with(&args, Some(&case.payload("codex-stop-active.json")), &[]);
        let out = parse_hook_output(&again).expect("a verdict");
        assert!(out["reason"].as_str().unwrap().contains(&format!("block {n} of 3")), "{out}");
    }
    let last = case.md_with(&args, Some(&case.payload("codex-stop-active.json")), &[]);
    let out = parse_hook_output(&last).expect("a message");
    assert!(out["systemMessage"].as_str().unwrap().contains("after 3 blocks in a row"), "{out}");
}

#[test]
fn a_stop_while_reported_background_work_runs_is_a_pause_recorded_in_the_ledger_and_counted_as_no_block() {
    let case = Case::new();
    case.repo.write(".ai/repo/majordomus.toml", "[hook]\nblock_limit = 1\n");
    case.repo.commit_all("policy");
    case.start("fix the parser");
    for _ in 0..2 {
        let run = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop-background.json")), &[]);
        let out = parse_hook_output(&run).expect("a message");
        assert_eq!(out.get("decision"), None, "a pause is not a block: {out}");
        let message = out["systemMessage"].as_str().unwrap();
        assert!(
            message.contains(
                "background work still runs (bash_1 (cargo test --workspace), agent_3 (Review the parser change))"
            ),
            "{message}"
        );
        snapshot_run!("stop_claude_background_pause", case.snapshot(&run));
    }
    assert_eq!(guards(&case), [], "no block was counted, and nothing measured");
    let ledger = std::fs::read_to_string(case.path().join(".ai/local/state/ledger.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(ledger.lines().last().unwrap()).unwrap();
    assert_eq!(last["kind"], "agent_background");
    assert_eq!(
        last["tasks"],
        serde_json::json!([
            {"id": "bash_1", "description": "cargo test --workspace"},
            {"id": "agent_3", "description": "Review the parser change"}
        ])
    );
    // The stop that comes when nothing runs is judged (and blocked: the
    // limit of 1 was not spent by the pauses); it records an empty list. A
    // host that reports nothing (Codex) records nothing.
    let judged = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    assert_eq!(parse_hook_output(&judged).expect("a verdict")["decision"], "block");
    case.md_with(&["hook", "stop", "--agent", "codex"], Some(&case.payload("codex-stop.json")), &[]);
    let ledger = std::fs::read_to_string(case.path().join(".ai/local/state/ledger.jsonl")).unwrap();
    let kinds: Vec<serde_json::Value> =
        ledger.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["tasks"].clone()).collect();
    assert_eq!(kinds.len(), 3, "{ledger}");
    assert_eq!(kinds[2], serde_json::json!([]));
    assert!(case.repo.git(&["status", "--porcelain"]).is_empty(), "the hook's own state never shows in git status");
    // Nothing running, reported again where the report in force says so
    // already, adds nothing: the ledger and its mark are not written.
    use std::os::unix::fs::MetadataExt;
    let mark = case.path().join(".git/majordomus/ledger-mark.json");
    let inode = |p: &std::path::Path| std::fs::symlink_metadata(p).expect("there").ino();
    let mark_before = inode(&mark);
    case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    let again = std::fs::read_to_string(case.path().join(".ai/local/state/ledger.jsonl")).unwrap();
    assert_eq!(again, ledger, "the same report was appended again");
    assert_eq!(inode(&mark), mark_before, "the ledger's mark was written again");
    // Work running again is recorded, and so is the report that it ended.
    case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop-background.json")), &[]);
    case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    let ledger = std::fs::read_to_string(case.path().join(".ai/local/state/ledger.jsonl")).unwrap();
    let tasks: Vec<usize> = ledger
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["tasks"].as_array().unwrap().len())
        .collect();
    assert_eq!(tasks, [2, 2, 0, 2, 0], "{ledger}");
}

#[test]
fn input_that_is_not_a_payload_lets_the_stop_through_and_says_why() {
    let case = Case::new();
    case.start("fix the parser");
    let run = case.md_with(&["hook", "stop"], Some("this is not json"), &[]);
    let out = parse_hook_output(&run).expect("a message");
    assert!(out["systemMessage"].as_str().unwrap().contains("not the JSON object a stop hook receives"), "{out}");
}

#[test]
fn a_command_line_clap_refuses_still_answers_with_valid_json_and_exit_zero() {
    let case = Case::new();
    let run = case.md_with(&["hook", "stop", "--agent", "cursor"], Some(&case.payload("claude-stop.json")), &[]);
    let out = parse_hook_output(&run).expect("a message");
    assert!(out["systemMessage"].as_str().unwrap().contains("invalid value 'cursor'"), "{out}");
    snapshot_run!("stop_bad_command_line", case.snapshot(&run));
}

#[test]
fn a_policy_the_task_broke_blocks_the_stop_under_the_starts_policy_naming_the_file() {
    let case = Case::new();
    case.start("fix the parser");
    case.repo.write(".ai/repo/majordomus.toml", "[hook]\nblock_limit = \"three\"\n");
    let run = case.md_with(&["hook", "stop"], Some(&case.payload("claude-stop.json")), &[]);
    let out = parse_hook_output(&run).expect("a block");
    assert_eq!(out["decision"], "block", "{out}");
    let reason = out["reason"].as_str().unwrap();
    assert!(reason.contains("majordomus.toml:2:") && reason.contains("gates-green"), "{reason}");
}

#[test]
fn a_task_record_that_cannot_be_read_blocks_with_its_remedy_until_the_block_limit() {
    let case = Case::new();
    case.repo.write(".ai/repo/majordomus.toml", "[hook]\nblock_limit = 2\n");
    case.repo.commit_all("policy");
    case.start("fix the parser");
    // A way out this must not be: breaking the record.
    std::fs::write(case.path().join(".ai/local/state/task.json"), "x\n").unwrap();
    let payload = case.payload("claude-stop.json");
    for n in 1..=2 {
        let run = case.md_with(&["hook", "stop"], Some(&payload), &[]);
        let out = parse_hook_output(&run).expect("a verdict");
        assert_eq!(out["decision"], "block", "block {n}: {out}");
        let reason = out["reason"].as_str().unwrap();
        assert!(reason.contains(".ai/local/state/task.json cannot be read"), "{reason}");
        assert!(reason.contains(&format!("block {n} of 2")) && reason.contains("majordomus finish"), "{reason}");
    }
    let run = case.md_with(&["hook", "stop"], Some(&payload), &[]);
    let out = parse_hook_output(&run).expect("a message");
    assert!(out["systemMessage"].as_str().unwrap().contains("after 2 blocks in a row"), "{out}");
    // The remedy works: finished, there is no task, and the stop goes through silently.
    assert_eq!(case.md(&["finish", "--outcome", "failed"]).code, 0);
    let run = case.md_with(&["hook", "stop"], Some(&payload), &[]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{run:?}");
}
