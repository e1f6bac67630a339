//! `majordomus hook session-start`, fed the payloads Claude Code and Codex send.

use crate::common::{parse_session_start_output, Case};
use crate::snapshot_run;

fn context(out: &serde_json::Value) -> &str {
    assert_eq!(out["hookSpecificOutput"]["hookEventName"], "SessionStart", "{out}");
    out["hookSpecificOutput"]["additionalContext"].as_str().unwrap_or_else(|| panic!("a context: {out}"))
}

#[test]
fn with_no_task_either_host_is_told_in_one_line_how_to_start_one() {
    let case = Case::new();
    for agent in ["claude", "codex"] {
        let args = ["hook", "session-start", "--agent", agent];
        let run = case.md_with(&args, Some(&case.payload(&format!("{agent}-session-start.json"))), &[]);
        let out = parse_session_start_output(&run);
        let text = context(&out);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("majordomus start \"what the work is\" --scope DIR"), "{text}");
        snapshot_run!(format!("session_start_{agent}_no_task"), case.snapshot(&run));
    }
    assert!(!case.path().join(".ai/local/state/task.json").exists(), "no task is started without auto_start");
}

#[test]
fn an_active_task_is_told_with_its_done_line_score_and_first_open_questions() {
    let case = Case::new();
    case.start("fix the parser");
    case.repo.write("notes.txt", "scratch\n");
    for agent in ["claude", "codex"] {
        let args = ["hook", "session-start", "--agent", agent];
        let run = case.md_with(&args, Some(&case.payload(&format!("{agent}-session-start.json"))), &[]);
        let out = parse_session_start_output(&run);
        let text = context(&out);
        let check = case.md(&["check"]);
        let done_line = check.stdout.lines().last().unwrap();
        assert!(text.contains("the task \"fix the parser\""), "{text}");
        assert!(text.contains(&format!("score 8/10; {done_line}")), "{text}");
        assert!(text.contains("1. backlog-not-grown (unknown): "), "the lowest cap first: {text}");
        assert!(
            text.contains("3. no-untracked (owed): 1 untracked file appeared since the start: notes.txt."),
            "{text}"
        );
        assert!(text.contains("3. ") && !text.contains("4. "), "the first three: {text}");
        assert!(text.contains("more: majordomus check lists every one."), "{text}");
        snapshot_run!(format!("session_start_{agent}_active_task"), case.snapshot(&run));
    }
}

#[test]
fn auto_start_records_a_task_at_startup_titled_from_the_session_but_never_on_resume_or_compact() {
    let case = Case::new();
    case.repo.write(".ai/repo/majordomus.toml", "[hook]\nauto_start = true\n");
    case.repo.commit_all("policy");
    let with_source = |fixture: &str, source: &str| {
        let mut value: serde_json::Value = serde_json::from_str(&case.payload(fixture)).unwrap();
        value["source"] = source.into();
        value.to_string()
    };
    for source in ["resume", "compact", "clear"] {
        let run =
            case.md_with(&["hook", "session-start"], Some(&with_source("claude-session-start.json", source)), &[]);
        assert!(context(&parse_session_start_output(&run)).contains("no task is active"), "{source}");
        assert!(!case.path().join(".ai/local/state/task.json").exists(), "{source} started a task");
    }
    let run = case.md_with(
        &["hook", "session-start", "--agent", "codex"],
        Some(&with_source("codex-session-start.json", "startup")),
        &[],
    );
    let out = parse_session_start_output(&run);
    let text = context(&out);
    assert!(text.contains("the task \"Codex session 019a4c2e\""), "{text}");
    assert!(text.contains(" for this session by [hook] auto_start."), "{text}");
    let task: serde_json::Value =
        serde_json::from_slice(&std::fs::read(case.path().join(".ai/local/state/task.json")).unwrap()).unwrap();
    assert_eq!(task["task"], "Codex session 019a4c2e");
    snapshot_run!("session_start_codex_auto_start", case.snapshot(&run));
    // The next session finds it active, and starts no other.
    let again = case.md_with(&["hook", "session-start"], Some(&case.payload("claude-session-start.json")), &[]);
    let text = context(&parse_session_start_output(&again)).to_string();
    assert!(text.contains("the task \"Codex session 019a4c2e\"") && !text.contains("auto_start"), "{text}");
}

#[test]
fn a_claude_session_title_names_the_task_auto_start_records() {
    let case = Case::new();
    case.repo.write(".ai/repo/majordomus.toml", "[hook]\nauto_start = true\n");
    case.repo.commit_all("policy");
    let mut value: serde_json::Value = serde_json::from_str(&case.payload("claude-session-start.json")).unwrap();
    value["session_title"] = "Fix the tokenizer".into();
    let run = case.md_with(&["hook", "session-start"], Some(&value.to_string()), &[]);
    assert!(context(&parse_session_start_output(&run)).contains("the task \"Fix the tokenizer\""));
}

#[test]
fn a_failure_or_a_crash_still_answers_with_json_the_host_accepts() {
    let case = Case::new();
    case.start("fix the parser");
    let run = case.md_with(&["hook", "session-start"], Some("not json"), &[]);
    let out = parse_session_start_output(&run);
    assert!(
        out["systemMessage"].as_str().unwrap().contains("not the JSON object a session-start hook receives"),
        "{out}"
    );
    let run = case.md_with(
        &["hook", "session-start", "--agent", "codex"],
        Some(&case.payload("codex-session-start.json")),
        &[("MAJORDOMUS_HOOK_FAULT", "panic")],
    );
    assert!(parse_session_start_output(&run)["systemMessage"].as_str().unwrap().contains("crashed"));
    let run = case.md_with(&["hook", "session-start", "--agent", "cursor"], Some("{}"), &[]);
    assert!(parse_session_start_output(&run)["systemMessage"].as_str().unwrap().contains("invalid value 'cursor'"));
}
