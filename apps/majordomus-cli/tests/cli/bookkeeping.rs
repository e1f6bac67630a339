//! The bookkeeping commands: todos, issues, background work.

use crate::common::Case;

#[test]
fn many_todo_adds_at_once_each_land_a_todo_with_a_number_of_its_own() {
    let case = Case::new();
    case.start("many hands");
    let texts: Vec<String> = (0..12).map(|i| format!("todo number {i}")).collect();
    let runs: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = texts.iter().map(|t| s.spawn(|| case.md(&["todo", "add", t.as_str()]))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for run in &runs {
        assert_eq!(run.code, 0, "{run:?}");
    }
    let list = case.md(&["todo", "list"]);
    assert_eq!(list.code, 0, "{list:?}");
    let mut numbers: Vec<u32> =
        list.stdout.lines().map(|l| l.trim().split(' ').next().unwrap().parse().unwrap()).collect();
    numbers.sort();
    assert_eq!(numbers, (1..=12).collect::<Vec<u32>>(), "{}", list.stdout);
    for t in &texts {
        assert!(list.stdout.contains(&format!("{t}\n")), "{t} was lost: {}", list.stdout);
    }
}

#[test]
fn bg_add_refuses_pid_1_and_the_processes_majordomus_runs_under() {
    let case = Case::new();
    case.start("bg");
    let me = std::process::id().to_string();
    for pid in ["1", me.as_str()] {
        let run = case.md(&["bg", "add", pid]);
        assert_eq!(run.code, 2, "{pid}: {run:?}");
        assert!(run.stderr.contains("nothing was registered"), "{pid}: {run:?}");
    }
    let list = case.md(&["bg", "list"]);
    assert!(list.stdout.contains("no background work registered"), "{list:?}");
}

#[test]
fn bg_forget_withdraws_a_registration_of_ended_work_and_one_still_running_only_with_a_reason() {
    let case = Case::new();
    case.start("bg");
    let mut child = std::process::Command::new("sleep").arg("60").spawn().unwrap();
    let pid = child.id().to_string();
    let status = |case: &Case| {
        let run = case.md(&["check", "--json"]);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let q = doc["questions"].as_array().unwrap().iter().find(|q| q["id"] == "no-background-work").unwrap().clone();
        (q["status"].as_str().unwrap().to_string(), q["evidence"].as_str().unwrap().to_string())
    };
    assert_eq!(case.md(&["bg", "add", &pid, "--what", "a sleep"]).code, 0);
    assert_eq!(status(&case).0, "owed");
    // Still running: refused without a reason, nothing recorded.
    let run = case.md(&["bg", "forget", &pid]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("still runs") && run.stderr.contains("--why"), "{run:?}");
    assert_eq!(status(&case).0, "owed");
    // With a reason: exempt while it runs, the reason shown.
    let run = case.md(&["bg", "forget", &pid, "--why", "the user's server"]);
    assert_eq!(run.code, 0, "{run:?}");
    let (s, evidence) = status(&case);
    assert_eq!(s, "exempt");
    assert!(evidence.contains(&pid) && evidence.contains("the user's server"), "{evidence}");
    child.kill().unwrap();
    child.wait().unwrap();
    // Ended: forgotten without a reason, it no longer counts.
    let mut ended = std::process::Command::new("sleep").arg("60").spawn().unwrap();
    let other = ended.id().to_string();
    assert_eq!(case.md(&["bg", "add", &other]).code, 0);
    ended.kill().unwrap();
    ended.wait().unwrap();
    let run = case.md(&["bg", "forget", &other]);
    assert_eq!(run.code, 0, "{run:?}");
    let again = case.md(&["bg", "forget", &other]);
    assert_eq!(again.code, 2, "{again:?}");
    assert!(again.stderr.contains("is not registered"), "{again:?}");
}

#[test]
fn todo_texts_and_bg_descriptions_are_printed_with_control_characters_escaped() {
    let case = Case::new();
    case.start("hostile text");
    let hostile = "a\n\u{1b}[31mred";
    let add = case.md(&["todo", "add", hostile]);
    assert_eq!(add.code, 0, "{add:?}");
    let list = case.md(&["todo", "list"]);
    let done = case.md(&["todo", "done", "1"]);
    for run in [&add, &list, &done] {
        assert!(!run.stdout.contains('\u{1b}') && run.stdout.lines().count() == 1, "{run:?}");
        assert!(run.stdout.contains("a\\n\\x1b[31mred"), "{run:?}");
    }
    let mut child = std::process::Command::new("sleep").arg("60").spawn().unwrap();
    let pid = child.id().to_string();
    let add = case.md(&["bg", "add", &pid, "--what", hostile]);
    let list = case.md(&["bg", "list"]);
    child.kill().unwrap();
    child.wait().unwrap();
    for run in [&add, &list] {
        assert_eq!(run.code, 0, "{run:?}");
        assert!(!run.stdout.contains('\u{1b}') && run.stdout.lines().count() == 1, "{run:?}");
        assert!(run.stdout.contains("a\\n\\x1b[31mred"), "{run:?}");
    }
}

#[test]
fn an_issue_claimed_in_two_spellings_of_one_repository_is_claimed_once() {
    let case = Case::new();
    case.start("claims");
    let first = case.md(&["issue", "claim", "OWNER/Repo#3"]);
    assert_eq!(first.code, 0, "{first:?}");
    assert_eq!(first.stdout, "OWNER/Repo#3 claimed\n");
    let second = case.md(&["issue", "claim", "owner/repo#3"]);
    assert_eq!(second.code, 0, "{second:?}");
    assert!(second.stdout.contains("already claimed"), "{second:?}");
    for bad in ["owner/..#1", "./x#1"] {
        let run = case.md(&["issue", "claim", bad]);
        assert_eq!(run.code, 2, "{bad}: {run:?}");
    }
    let big = case.md(&["issue", "claim", "99999999999999999999999"]);
    assert_eq!(big.code, 2, "{big:?}");
    assert!(big.stderr.contains("too large"), "{big:?}");
}
