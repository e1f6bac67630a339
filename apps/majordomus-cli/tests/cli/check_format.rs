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
        .all(|l| l.starts_with("::warning title=majordomus%3A ") || l.starts_with("::error title=majordomus%3A ")));
    assert!(annotations
        .iter()
        .any(|l| l.starts_with("::warning title=majordomus%3A no-untracked is owed::") && l.contains("notes.txt")));
    assert_eq!(annotations.len(), done.split(' ').count() - 1, "one annotation per open question");
    snapshot_run!("check_github", case.snapshot(&run));
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
