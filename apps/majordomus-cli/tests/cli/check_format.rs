//! `majordomus check --format`: text, json (and its alias --json), github.

use crate::common::Case;
use crate::snapshot_run;

#[test]
fn github_format_annotates_each_open_question_then_prints_the_done_line() {
    let case = Case::new();
    case.start("fix the parser");
    case.repo.write("notes.txt", "an untracked file\n");
    let run = case.md(&["check", "--format", "github"]);
    assert_eq!(run.code, 10, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    let (done, annotations) = lines.split_last().unwrap();
    let text = case.md(&["check"]);
    assert_eq!(Some(*done), text.stdout.lines().last(), "the same done line as the text");
    assert!(annotations
        .iter()
        .all(|l| (l.starts_with("::warning ") || l.starts_with("::error ")) && l.contains("title=majordomus%3A ")));
    assert!(annotations
        .iter()
        .any(|l| l.contains("title=majordomus%3A no-untracked is owed::") && l.contains("notes.txt")));
    assert_eq!(annotations.len(), done.split(' ').count() - 1, "one annotation per open question");
    snapshot_run!("check_github", case.snapshot(&run));
}

#[test]
fn github_format_puts_the_most_important_first_and_names_the_file_the_evidence_names() {
    let case = Case::new();
    case.start("fix the parser");
    case.repo.write("notes.txt", "an untracked file\n");
    let run = case.md(&["check", "--format", "github"]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("::warning title=majordomus%3A backlog-not-grown is unknown::"),
        "cap 3 first: {run:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("::warning file=notes.txt,title=majordomus%3A no-untracked is owed::")),
        "{run:?}"
    );
}

#[test]
fn in_github_actions_check_appends_a_markdown_summary_to_the_steps_summary() {
    let case = Case::new();
    case.start("fix the parser");
    case.repo.write("notes.txt", "an untracked file\n");
    let summary = case.path().parent().unwrap().join("step-summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let env = [("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())];
    let run = case.md_with(&["check"], None, &env);
    assert_eq!(run.code, 10, "{run:?}");
    let text = std::fs::read_to_string(&summary).unwrap();
    let done_line = run.stdout.lines().last().unwrap();
    assert!(
        text.starts_with(&format!("earlier step\n## majordomus: not done\n\n`{done_line}`\n\nScore: **")),
        "{text}"
    );
    assert!(
        text.contains("| `no-untracked` | owed | 1 untracked file appeared since the start: notes.txt. |"),
        "{text}"
    );
    let json = case.md_with(&["check", "--json"], None, &env);
    assert_eq!(json.code, 10);
    assert_eq!(std::fs::read_to_string(&summary).unwrap().matches("## majordomus").count(), 2, "every format appends");
    let nowhere = case.md_with(&["check"], None, &[("GITHUB_STEP_SUMMARY", "/nonexistent/dir/summary.md")]);
    assert_eq!(nowhere.code, 10, "a summary that cannot be written changes nothing: {nowhere:?}");
    assert!(nowhere.stderr.contains("cannot append the summary to GITHUB_STEP_SUMMARY"), "{nowhere:?}");
}

#[test]
fn json_is_a_format_and_json_the_flag_is_its_alias() {
    let case = Case::new();
    let a = case.md(&["check", "--format", "json"]);
    let b = case.md(&["check", "--json"]);
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
        v["generated_at"] = serde_json::Value::Null;
        v
    };
    assert_eq!((a.code, strip(&a.stdout)), (b.code, strip(&b.stdout)));
    let both = case.md(&["check", "--json", "--format", "text"]);
    assert_eq!(both.code, 2, "two answers to one question are refused: {both:?}");
}

#[test]
fn text_piped_to_a_file_carries_no_colour() {
    let case = Case::new();
    let run = case.md_with(&["check"], None, &[("NO_COLOR", "")]);
    assert!(!run.stdout.contains('\x1b'), "{run:?}");
}
