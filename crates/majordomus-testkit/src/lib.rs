//! Real git repositories in temporary directories, for tests only (a
//! dev-dependency of the other crates, never part of their public API).
//!
//! The git command line runs hermetically: no global or system config, a
//! home of its own, fixed identities, so a developer's settings never leak
//! into a test. [`task_record`] is the one task record the tests start
//! from.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub use tempfile::TempDir;

use majordomus_records::task::{Snapshot, TaskRecord, TASK_SCHEMA};

/// A task record as the judging tests start from: task `t` ("work"), no
/// scope, started at 2026-11-30T10:00:00Z on `main` at a commit of 40 `a`s,
/// its snapshot holding no dirty or untracked file and no stash entry (the
/// other parts not recorded), no owner. A test changes what it is about:
/// `TaskRecord { head: None, ..task_record() }`.
pub fn task_record() -> TaskRecord {
    TaskRecord {
        schema: TASK_SCHEMA.into(),
        id: "t".into(),
        task: "work".into(),
        scope: vec![],
        scope_added: vec![],
        issues: vec![],
        started_at: "2026-11-30T10:00:00Z".into(),
        head: Some("a".repeat(40)),
        branch: Some("main".into()),
        snapshot: Snapshot {
            untracked: Some(vec![]),
            stashes: Some(vec![]),
            dirty: Some(vec![]),
            gate_environment: Some(gate_environment()),
            ..Snapshot::default()
        },
        owner: None,
    }
}

/// The environment [`task_record`]'s task started under (and its gates
/// are run under, in the judging tests).
pub fn gate_environment() -> majordomus_records::ledger::Environment {
    let set = [("PATH", "/usr/bin:/bin"), ("SHELL", "/bin/bash")];
    majordomus_records::ledger::GATE_ENVIRONMENT
        .iter()
        .map(|k| (k.to_string(), set.iter().find(|(name, _)| name == k).map(|(_, v)| v.to_string())))
        .collect()
}

#[derive(Debug)]
pub struct TestRepo {
    pub dir: TempDir,
    home: TempDir,
}

impl TestRepo {
    /// A new repository with `main` checked out and no commit yet.
    pub fn new() -> Self {
        let dir = tempfile::Builder::new().prefix("majordomus-repo-").tempdir().unwrap();
        let home = tempfile::Builder::new().prefix("majordomus-home-").tempdir().unwrap();
        let repo = Self { dir, home };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// A new repository with one commit holding `README`.
    pub fn with_commit() -> Self {
        let repo = Self::new();
        repo.write("README", "hello\n");
        repo.commit_all("initial");
        repo
    }

    /// A repository stopped in a merge of `side` into `main` that
    /// conflicts on `file`.
    pub fn with_conflicted_merge(file: &str) -> Self {
        let repo = Self::new();
        repo.write(file, "base\n");
        repo.commit_all("base");
        repo.git(&["checkout", "-q", "-b", "side"]);
        repo.write(file, "side\n");
        repo.commit_all("side");
        repo.git(&["checkout", "-q", "main"]);
        repo.write(file, "main\n");
        repo.commit_all("main");
        let out = repo.git_command(repo.path()).args(["merge", "side"]).output().unwrap();
        assert!(!out.status.success(), "the merge did not conflict");
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn open(&self) -> git2::Repository {
        git2::Repository::open(self.path()).unwrap()
    }

    /// Writes a file (creating parent directories) relative to the root.
    pub fn write(&self, rel: &str, content: &str) -> PathBuf {
        let path = self.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    }

    pub fn remove(&self, rel: &str) {
        std::fs::remove_file(self.path().join(rel)).unwrap();
    }

    /// Stages everything and commits; returns the new commit id.
    pub fn commit_all(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.head()
    }

    /// Stages everything and commits with author and committer dates
    /// `minute` minutes after a fixed instant (1,700,000,000 s), so that a
    /// history walk ordered by date reads it as a test expects; returns the
    /// new commit id.
    pub fn commit_all_at_minute(&self, minute: u32) -> String {
        self.git(&["add", "-A"]);
        let date = format!("{} +0000", 1_700_000_000 + 60 * u64::from(minute));
        let out = self
            .git_command(self.path())
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .args(["commit", "-q", "-m", "work"])
            .output()
            .expect("git commit");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        self.head()
    }

    pub fn head(&self) -> String {
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }

    /// Runs the git command line hermetically in the repository; panics on failure.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_in(self.path(), args)
    }

    pub fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.git_command(dir).args(args).output().unwrap();
        assert!(out.status.success(), "git {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    /// A hermetic git command in `dir`, not yet run.
    pub fn git_command(&self, dir: &Path) -> Command {
        let mut cmd = Command::new("git");
        cmd.current_dir(dir);
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("GIT_") {
                cmd.env_remove(key);
            }
        }
        cmd.env("HOME", self.home.path())
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test Author")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "Test Author")
            .env("GIT_COMMITTER_EMAIL", "author@example.com")
            .env("GIT_TERMINAL_PROMPT", "0");
        cmd
    }

    /// A submodule `lib` cloned from a bare `lib.git` beside this one
    /// (absolute URL) holding one commit, added and committed; returns the
    /// bare repository's directory.
    pub fn with_submodule(&self) -> TempDir {
        let bare = tempfile::Builder::new().prefix("majordomus-lib-").tempdir().unwrap();
        let seed = tempfile::Builder::new().prefix("majordomus-seed-").tempdir().unwrap();
        self.git_in(bare.path(), &["init", "-q", "--bare", "-b", "main"]);
        self.git_in(seed.path(), &["clone", "-q", bare.path().to_str().unwrap(), "."]);
        self.git_in(seed.path(), &["commit", "-q", "--allow-empty", "-m", "lib"]);
        self.git_in(seed.path(), &["push", "-q", "origin", "HEAD:main"]);
        let url = bare.path().to_str().unwrap();
        self.git(&["-c", "protocol.file.allow=always", "submodule", "--quiet", "add", url, "lib"]);
        self.commit_all("lib added");
        bare
    }

    /// A bare repository beside this one, added as remote `origin`, with
    /// `main` pushed and tracked.
    pub fn with_origin(&self) -> TempDir {
        let bare = tempfile::Builder::new().prefix("majordomus-origin-").tempdir().unwrap();
        self.git_in(bare.path(), &["init", "-q", "--bare", "-b", "main"]);
        self.git(&["remote", "add", "origin", bare.path().to_str().unwrap()]);
        self.git(&["push", "-q", "-u", "origin", "main"]);
        self.git(&["remote", "set-head", "origin", "main"]);
        bare
    }
}

impl Default for TestRepo {
    fn default() -> Self {
        Self::new()
    }
}
