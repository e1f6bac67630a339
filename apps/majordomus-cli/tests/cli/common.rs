//! Running the real binary hermetically: a repository and a home of its
//! own, no inherited git or colour settings, and snapshots with the
//! temporary paths, times, task ids and commit ids redacted.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub use majordomus_testkit::TestRepo;

/// A repository to run majordomus in, with a home directory of its own.
#[derive(Debug)]
pub struct Case {
    pub repo: TestRepo,
    home: tempfile::TempDir,
}

/// One run of the binary.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Case {
    /// A repository with one commit (`README`) and no task.
    pub fn new() -> Self {
        Self {
            repo: TestRepo::with_commit(),
            home: tempfile::Builder::new().prefix("majordomus-home-").tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> &Path {
        self.repo.path()
    }

    /// `majordomus ARGS` in the repository.
    pub fn md(&self, args: &[&str]) -> Run {
        self.run(self.path(), args, None, &[])
    }

    /// `majordomus ARGS` in the repository with `stdin` piped in and extra
    /// environment variables.
    pub fn md_with(&self, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Run {
        self.run(self.path(), args, stdin, env)
    }

    pub fn run(&self, dir: &Path, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_majordomus"));
        cmd.current_dir(dir)
            .args(args)
            .env_clear()
            .env("HOME", self.home.path())
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("NO_COLOR", "1")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        if let Some(text) = stdin {
            // A command that exits without reading its input (clap refusing
            // the command line) closes the pipe first: not a test failure.
            match child.stdin.take().unwrap().write_all(text.as_bytes()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                other => other.unwrap(),
            }
        }
        let out = child.wait_with_output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    }

    /// Starts a task, and checks it started.
    pub fn start(&self, task: &str) {
        let run = self.md(&["start", task]);
        assert_eq!(run.code, 0, "{run:?}");
    }

    /// A recorded hook payload with its `cwd` pointing at this repository.
    pub fn payload(&self, fixture: &str) -> String {
        let path = fixtures().join("hooks").join(fixture);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["cwd"] = serde_json::Value::String(self.path().display().to_string());
        value.to_string()
    }

    /// The text of a run with this case's paths, and every time, task id
    /// and commit id, replaced by placeholders.
    pub fn redact(&self, text: &str) -> String {
        let mut text = text.to_string();
        for p in [self.path().canonicalize().unwrap(), self.path().to_path_buf()] {
            text = text.replace(&p.display().to_string(), "[REPO]");
        }
        text.replace(&self.home.path().display().to_string(), "[HOME]")
    }

    /// The run as a snapshot: exit status, stdout, stderr, redacted.
    pub fn snapshot(&self, run: &Run) -> String {
        self.redact(&format!(
            "[exit status: {}]\n--- stdout ---\n{}--- stderr ---\n{}",
            run.code, run.stdout, run.stderr
        ))
    }
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures")
}

/// The insta filters every snapshot of a run uses.
pub fn filters() -> Vec<(&'static str, &'static str)> {
    vec![
        (r"\d{8}T\d{6}Z-[0-9a-f]+", "[TASK-ID]"),
        (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", "[TIME]"),
        (r"\b[0-9a-f]{40}\b", "[COMMIT]"),
        (r"\b[0-9a-f]{12}\b", "[SHORT-COMMIT]"),
        (r"(protocol\.rs):\d+", "$1:[LINE]"),
        (r#""(pid|start_time|mtime_ns|refs_mtime_ns|size|index_mtime)": \d+"#, r#""$1": [N]"#),
        // The start's stamps of the files it read by content: there or not
        // by the clock (status/verified.rs in majordomus-readings).
        (r#",\n\s*"verified(_attributes)?": "[0-9a-f]*""#, ""),
        (r"index=[0-9a-f]{16}\b", "index=[HASH]"),
        (r#""PATH": "[^"]*""#, r#""PATH": "[PATH]""#),
        (r#""HOME": "[^"]*""#, r#""HOME": "[HOME]""#),
        (r"> \d+ [+-]\d{4}\\t", "> [SECONDS] [ZONE]\\t"),
    ]
}

/// Snapshots `$value` with the run filters applied.
#[macro_export]
macro_rules! snapshot_run {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ filters => $crate::common::filters() }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// The stop hook's output is valid JSON whenever there is any, and within
/// Codex's stop output schema (Claude Code reads the same keys), so every
/// answer any test sees is one both hosts accept.
pub fn parse_hook_output(run: &Run) -> Option<serde_json::Value> {
    assert_eq!(run.code, 0, "a stop hook always exits 0: {run:?}");
    if run.stdout.is_empty() {
        return None;
    }
    assert!(
        run.stdout.ends_with('\n') && run.stdout.trim_end().lines().count() == 1,
        "one line of JSON: {:?}",
        run.stdout
    );
    if let Err(why) = majordomus_cli::commands::hook::protocol::codex_accepts_stop(&run.stdout) {
        panic!("an answer Codex rejects: {why}");
    }
    Some(serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", run.stdout)))
}

/// The session-start hook's output: one line of JSON within Codex's
/// session-start output schema.
pub fn parse_session_start_output(run: &Run) -> serde_json::Value {
    assert_eq!(run.code, 0, "a session-start hook always exits 0: {run:?}");
    assert!(
        run.stdout.ends_with('\n') && run.stdout.trim_end().lines().count() == 1,
        "one line of JSON: {:?}",
        run.stdout
    );
    if let Err(why) = majordomus_cli::commands::hook::protocol::codex_accepts_session_start(&run.stdout) {
        panic!("an answer Codex rejects: {why}");
    }
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", run.stdout))
}

/// The loop guards a case's hooks left, by file name
/// (`HOST-main-HASH.json`, `HOST-subagent-HASH.json`), with their counts.
pub fn guards(case: &Case) -> Vec<(String, u64)> {
    let dir = case.path().join(".ai/local/state/hook");
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut out: Vec<(String, u64)> = entries
        .map(|e| {
            let path = e.unwrap().path();
            let state: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            (path.file_name().unwrap().to_string_lossy().into_owned(), state["blocks"].as_u64().unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The count of the one guard whose file name starts with `prefix`
/// (`claude-main-`, say).
pub fn guard(case: &Case, prefix: &str) -> u64 {
    let found: Vec<u64> = guards(case).into_iter().filter(|(n, _)| n.starts_with(prefix)).map(|(_, b)| b).collect();
    assert_eq!(found.len(), 1, "one guard {prefix}*: {:?}", guards(case));
    found[0]
}
