//! The real binary over real repositories: whole runs (stdout, stderr and
//! exit status) snapshotted, with timestamps, ids and paths redacted.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

use majordomus_testkit::TestRepo;

mod hostile;

// The stop hook, hook install, check's formats, the schemas, everyday use.
mod common;
mod damaged;

mod bookkeeping;
mod check_format;
mod everyday;
mod hook_install;
mod hook_session_start;
mod hook_stop;
mod schema;

/// One run of the binary, as the snapshots show it.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn render(&self) -> String {
        let mut out = self.stdout.clone();
        if !self.stderr.is_empty() {
            out.push_str("--- stderr ---\n");
            out.push_str(&self.stderr);
        }
        out.push_str(&format!("[exit status: {}]\n", self.code));
        out
    }
}

/// Runs `majordomus ARGS` in `dir` with a cleared environment.
fn majordomus(dir: &Path, args: &[&str]) -> Run {
    majordomus_with(dir, args, &[])
}

/// Runs `majordomus ARGS` in `dir` with a cleared environment plus `envs`.
fn majordomus_with(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Run {
    let home = dir.parent().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_majordomus"))
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("NO_COLOR", "1")
        .envs(envs.iter().copied())
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// Snapshots `text` with what changes from run to run redacted.
macro_rules! assert_run_snapshot {
    ($name:expr, $text:expr, $root:expr) => {{
        let root = $root.canonicalize().unwrap().display().to_string();
        let text = $text.replace(&root, "[ROOT]");
        insta::with_settings!({filters => common::filters()}, {
            insta::assert_snapshot!($name, text);
        });
    }};
}

fn document(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join(".ai/local/state/gates.completion.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn status(doc: &serde_json::Value, id: &str) -> String {
    doc["questions"].as_array().unwrap().iter().find(|q| q["id"] == id).unwrap()["status"].as_str().unwrap().to_string()
}

#[test]
fn check_without_a_task_names_every_question_that_needs_one() {
    let t = TestRepo::with_commit();
    let run = majordomus(t.path(), &["check"]);
    assert_eq!(run.code, 10);
    assert_run_snapshot!("check_without_a_task", run.render(), t.path());
}

#[test]
fn check_in_the_middle_of_a_task_prints_each_open_question_and_the_done_line() {
    let t = TestRepo::with_commit();
    assert_eq!(majordomus(t.path(), &["start", "add a parser", "--scope", "src"]).code, 0);
    t.write("src/parser.rs", "fn parse() {}\n");
    t.commit_all("parser");
    t.write("docs/notes.md", "outside the scope\n");
    t.write("README", "edited, not committed\n");
    let run = majordomus(t.path(), &["check"]);
    assert_eq!(run.code, 10);
    assert_run_snapshot!("check_mid_task", run.render(), t.path());
}

#[test]
fn check_json_prints_the_document_it_writes() {
    let t = TestRepo::with_commit();
    assert_eq!(majordomus(t.path(), &["start", "tidy"]).code, 0);
    t.write("src/lib.rs", "// tidy\n");
    t.write("tests/lib.rs", "#[test]\nfn a_test() {}\n");
    t.commit_all("tidy");
    let run = majordomus(t.path(), &["check", "--json"]);
    assert_eq!(run.code, 10);
    let printed: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(printed, document(t.path()));
    assert_eq!(printed["schema"], "majordomus/gates.completion/v1");
    assert_eq!(printed["questions"].as_array().unwrap().len(), 19);
    assert_run_snapshot!("check_json", run.stdout, t.path());
}

#[test]
fn a_corrupt_task_record_gives_unknown_answers_not_a_panic() {
    let t = TestRepo::with_commit();
    assert_eq!(majordomus(t.path(), &["start", "x"]).code, 0);
    let task = t.path().join(".ai/local/state/task.json");
    let full = std::fs::read_to_string(&task).unwrap();
    for broken in [&full[..full.len() / 2], "", "[1, 2, 3]", "{\"schema\": \"majordomus/task/v1\"}", "\u{0}\u{1}binary"]
    {
        std::fs::write(&task, broken).unwrap();
        let run = majordomus(t.path(), &["check", "--json"]);
        assert_eq!(run.code, 10, "{broken:?}: {}", run.stderr);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert!(doc["task"].is_null());
        assert!(doc["task_error"].as_str().unwrap().contains("not a majordomus task record"), "{doc}");
        assert_eq!(status(&doc, "committed"), "unknown");
        assert_eq!(status(&doc, "settled"), "pass");
        // start refuses to overwrite a record it cannot read; finish cannot
        // call it completed, and ends it otherwise, archiving what is there.
        assert_eq!(majordomus(t.path(), &["start", "y"]).code, 15);
        assert_eq!(majordomus(t.path(), &["finish", "--outcome", "completed"]).code, 2);
    }
    let run = majordomus(t.path(), &["finish", "--outcome", "failed"]);
    assert_eq!(run.code, 0, "{}", run.render());
    assert!(run.stdout.contains("finished a task whose record could not be read"), "{}", run.stdout);
    assert!(!task.exists());
    assert_eq!(std::fs::read_dir(t.path().join(".git/majordomus/archive")).unwrap().count(), 1);
}

#[test]
fn an_enormous_field_in_the_task_record_is_refused_on_load_never_copied_into_the_answers() {
    let t = TestRepo::with_commit();
    assert_eq!(majordomus(t.path(), &["start", "x"]).code, 0);
    let task = t.path().join(".ai/local/state/task.json");
    let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&task).unwrap()).unwrap();
    record["head"] = "f".repeat(10 << 20).into();
    std::fs::write(&task, record.to_string()).unwrap();
    let run = majordomus(t.path(), &["check", "--json"]);
    assert_eq!(run.code, 10, "{}", run.stderr);
    assert!(run.stdout.len() < 256 << 10, "a 10 MB field made a {} byte document", run.stdout.len());
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(doc["task_error"].as_str().unwrap().contains("its head"), "{}", doc["task_error"]);
    assert_eq!(status(&doc, "committed"), "unknown");
}

#[test]
fn a_panic_inside_majordomus_is_an_internal_error_exit_13_and_writes_nothing() {
    let t = TestRepo::with_commit();
    let run = majordomus_with(t.path(), &["check"], &[("MAJORDOMUS_FAULT", "panic")]);
    assert_eq!(run.code, 13, "{}", run.render());
    assert!(run.stderr.contains("majordomus: internal error"), "{}", run.stderr);
    assert!(!t.path().join(".ai/local/state/gates.completion.json").exists());
}

#[test]
fn bad_input_is_a_usage_error_that_changes_nothing() {
    let t = TestRepo::with_commit();
    for args in [
        &["start", "x", "--scope", "/etc"][..],
        &["start", "x", "--scope", "../elsewhere"],
        &["start", "   "],
        &["finish", "--outcome", "completed"],
        &["finish", "--outcome", "shipped"],
        &["frobnicate"],
    ] {
        let run = majordomus(t.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.render());
        assert!(!run.stderr.is_empty(), "{args:?} said nothing");
        assert!(!t.path().join(".ai/local/state/task.json").exists(), "{args:?} wrote a record");
    }
    let outside = tempfile::tempdir().unwrap();
    let run = majordomus(outside.path(), &["check"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("is not inside a git repository"), "{}", run.stderr);
}

#[test]
fn a_policy_that_cannot_be_read_is_a_configuration_error_naming_file_line_and_column() {
    let t = TestRepo::with_commit();
    t.write(".ai/repo/majordomus.toml", "[trunk]\nbranch = \"main\"\ncolour = \"blue\"\n");
    let run = majordomus(t.path(), &["check"]);
    assert_eq!(run.code, 2, "{}", run.render());
    assert!(run.stderr.contains("majordomus.toml:3:1"), "{}", run.stderr);
    assert!(!t.path().join(".ai/local/state/gates.completion.json").exists());
}

#[test]
fn start_records_the_start_and_what_was_inherited() {
    let t = TestRepo::with_commit();
    t.write("README", "dirty before the task\n");
    t.write("scratch.txt", "untracked before the task\n");
    let run = majordomus(t.path(), &["start", "inherit", "--scope", "./src//", "--issue", "7"]);
    assert_eq!(run.code, 0, "{}", run.render());
    assert_run_snapshot!("start_with_inheritance", run.render(), t.path());
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.path().join(".ai/local/state/task.json")).unwrap()).unwrap();
    assert_eq!(record["scope"], serde_json::json!(["src"]));
    assert_eq!(record["issues"], serde_json::json!(["7"]));
    assert_eq!(record["head"], serde_json::json!(t.head()));
    assert_eq!(record["snapshot"]["dirty"][0]["path"], "README");
    assert_eq!(record["snapshot"]["untracked"][0]["path"], "scratch.txt");
    chrono::DateTime::parse_from_rfc3339(record["started_at"].as_str().unwrap()).unwrap();
    // What was there at the start is named, not counted.
    let run = majordomus(t.path(), &["check", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(status(&doc, "committed"), "pass");
    assert_eq!(status(&doc, "no-untracked"), "pass");
    let committed = doc["questions"].as_array().unwrap().iter().find(|q| q["id"] == "committed").unwrap();
    assert!(committed["evidence"].as_str().unwrap().contains("not counted: README"), "{committed}");
}

#[test]
fn an_unborn_head_is_recorded_as_such() {
    let t = TestRepo::new();
    let run = majordomus(t.path(), &["start", "first commit"]);
    assert_eq!(run.code, 0, "{}", run.render());
    assert!(run.stdout.contains("main, which has no commit yet"), "{}", run.stdout);
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.path().join(".ai/local/state/task.json")).unwrap()).unwrap();
    assert!(record["head"].is_null());
    t.write("a.txt", "a\n");
    let c = t.commit_all("first");
    let run = majordomus(t.path(), &["check", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(status(&doc, "measurable"), "pass");
    assert!(doc["questions"][18]["details"]["listed"][0] == c.as_str());
}

#[test]
fn finish_archives_the_record_and_completed_is_refused_while_open() {
    let t = TestRepo::with_commit();
    assert_eq!(majordomus(t.path(), &["start", "x"]).code, 0);
    let refused = majordomus(t.path(), &["finish", "--outcome", "completed"]);
    assert_eq!(refused.code, 10);
    assert!(refused.stderr.contains("nothing was written"), "{}", refused.stderr);
    assert!(t.path().join(".ai/local/state/task.json").exists());
    assert!(!t.path().join(".git/majordomus/archive").exists());
    let run = majordomus(t.path(), &["finish", "--outcome", "blocked"]);
    assert_eq!(run.code, 0, "{}", run.render());
    assert!(!t.path().join(".ai/local/state/task.json").exists());
    let archived: Vec<_> = std::fs::read_dir(t.path().join(".git/majordomus/archive")).unwrap().collect();
    assert_eq!(archived.len(), 1);
    let text = std::fs::read_to_string(archived[0].as_ref().unwrap().path()).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["outcome"], "blocked");
    assert_eq!(doc["record"]["task"], "x");
    // And a new task may start.
    assert_eq!(majordomus(t.path(), &["start", "next"]).code, 0);
}

#[test]
fn a_record_whose_id_names_a_path_is_archived_inside_the_archive_and_never_over_another() {
    let t = TestRepo::with_commit();
    let outside = tempfile::tempdir().unwrap();
    let escape = outside.path().join("escaped");
    let task = t.path().join(".ai/local/state/task.json");
    let archive = t.path().join(".git/majordomus/archive");
    for id in [escape.to_str().unwrap(), "../../../README", "same-id", "same-id"] {
        assert_eq!(majordomus(t.path(), &["start", "x"]).code, 0);
        let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&task).unwrap()).unwrap();
        record["id"] = id.into();
        // Its copy in the git directory says the same: this is a record as
        // a hostile writer made both, not one changed by hand behind the copy.
        for file in [task.clone(), t.path().join(".git/majordomus/task.json")] {
            std::fs::write(file, serde_json::to_vec(&record).unwrap()).unwrap();
        }
        let run = majordomus(t.path(), &["finish", "--outcome", "partial"]);
        assert_eq!(run.code, 0, "{}", run.render());
        assert!(run.stdout.contains(&format!("archived to {}", archive.display())), "{}", run.stdout);
    }
    assert!(!outside.path().join("escaped.json").exists(), "an id wrote outside the archive");
    assert!(!t.path().join(".ai/README.json").exists(), "an id wrote outside the archive");
    assert_eq!(t.git(&["status", "--porcelain"]), "");
    let mut names: Vec<String> =
        std::fs::read_dir(&archive).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names.contains(&"same-id.json".to_string()) && names.contains(&"same-id-2.json".to_string()), "{names:?}");
    assert_eq!(names.iter().filter(|n| n.starts_with("task-")).count(), 2, "{names:?}");
}

#[test]
fn a_state_directory_that_is_a_symlink_or_a_file_is_refused_and_nothing_is_written_through_it() {
    let elsewhere = tempfile::tempdir().unwrap();
    let t = TestRepo::with_commit();
    std::fs::create_dir_all(t.path().join(".ai")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), t.path().join(".ai/local")).unwrap();
    t.git(&["add", ".ai"]);
    t.git(&["commit", "-q", "-m", "a tracked symlink where the state goes"]);
    for args in [&["start", "x"][..], &["check"][..]] {
        let run = majordomus(t.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.render());
        assert!(run.stderr.contains(".ai/local is a symbolic link"), "{}", run.stderr);
    }
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0, "state was written through the symlink");

    let t = TestRepo::with_commit();
    t.write(".ai/local", "a file where the state directory goes\n");
    let run = majordomus(t.path(), &["start", "x"]);
    assert_eq!(run.code, 2, "{}", run.render());
    assert!(run.stderr.contains(".ai/local is not a directory"), "{}", run.stderr);
}

#[test]
fn of_two_starts_at_once_one_records_its_task_and_the_other_exits_15() {
    let t = TestRepo::with_commit();
    for round in 0..5 {
        let runs: Vec<Run> = std::thread::scope(|s| {
            let a = s.spawn(|| majordomus(t.path(), &["start", "first"]));
            let b = s.spawn(|| majordomus(t.path(), &["start", "second"]));
            vec![a.join().unwrap(), b.join().unwrap()]
        });
        let mut codes: Vec<i32> = runs.iter().map(|r| r.code).collect();
        codes.sort();
        assert_eq!(codes, [0, 15], "round {round}: {}", runs.iter().map(Run::render).collect::<Vec<_>>().join("\n"));
        let winner = runs.iter().find(|r| r.code == 0).unwrap();
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(t.path().join(".ai/local/state/task.json")).unwrap())
                .unwrap();
        assert!(winner.stdout.contains(record["task"].as_str().unwrap()), "the record is not the winner's");
        assert_eq!(majordomus(t.path(), &["finish", "--outcome", "partial"]).code, 0);
    }
}

#[test]
fn the_tools_own_state_never_shows_in_git_status() {
    let t = TestRepo::with_commit();
    majordomus(t.path(), &["check"]);
    assert_eq!(t.git(&["status", "--porcelain"]), "", "check without start");
    assert_eq!(majordomus(t.path(), &["start", "x"]).code, 0);
    majordomus(t.path(), &["check"]);
    assert_eq!(t.git(&["status", "--porcelain", "--ignored=no"]), "");
}

#[test]
fn pushed_and_integrated_follow_the_remote() {
    let t = TestRepo::with_commit();
    let _origin = t.with_origin();
    assert_eq!(majordomus(t.path(), &["start", "feature", "--scope", "src"]).code, 0);
    t.git(&["checkout", "-q", "-b", "feature"]);
    t.write("src/a.rs", "a\n");
    t.commit_all("a");
    let doc = {
        majordomus(t.path(), &["check"]);
        document(t.path())
    };
    assert_eq!(status(&doc, "pushed"), "owed");
    assert_eq!(status(&doc, "integrated"), "owed");
    t.git(&["push", "-q", "-u", "origin", "feature"]);
    majordomus(t.path(), &["check"]);
    let doc = document(t.path());
    assert_eq!(status(&doc, "pushed"), "pass");
    assert_eq!(status(&doc, "integrated"), "owed");
    // Squash-merged on the remote's main, then fetched: integrated.
    t.git(&["checkout", "-q", "main"]);
    t.git(&["merge", "-q", "--squash", "feature"]);
    t.git(&["commit", "-q", "-m", "feature (squashed)"]);
    t.git(&["push", "-q", "origin", "main"]);
    t.git(&["checkout", "-q", "feature"]);
    majordomus(t.path(), &["check"]);
    let doc = document(t.path());
    assert_eq!(status(&doc, "integrated"), "pass");
    // The remote branch deleted: feature's upstream is gone.
    t.git(&["push", "-q", "origin", "--delete", "feature"]);
    majordomus(t.path(), &["check"]);
    let doc = document(t.path());
    assert_eq!(status(&doc, "upstream-alive"), "owed");
}
