//! Where the tool's own files live, relative to a repository's working tree.

use std::path::{Path, PathBuf};

use crate::confined::{self, Dir, Perm, PlaceError};

/// The directory, relative to the working tree root, that holds the tool's
/// own state. It is never counted by any reading.
pub const LOCAL_DIR: &str = ".ai/local";
/// The directory of the tool's state files.
pub const STATE_DIR: &str = ".ai/local/state";
/// The policy file, relative to the working tree root.
pub const POLICY_FILE: &str = ".ai/repo/majordomus.toml";
/// The directory holding tracked debt baselines and policy.
pub const REPO_DIR: &str = ".ai/repo";
/// The task archives' directory, below the common git directory: one for
/// every worktree, so that an archive outlives the worktree it was made in
/// (`git worktree remove` deletes the worktree's `.ai/local/`).
pub const ARCHIVE_DIR: &str = "majordomus/archive";

/// The task archives' directory in the common git directory `common_dir`.
pub fn shared_archive_dir(common_dir: &Path) -> PathBuf {
    common_dir.join(ARCHIVE_DIR)
}

/// The tool's files for one working tree.
#[derive(Debug, Clone)]
pub struct StatePaths {
    root: PathBuf,
    git_dir: Option<PathBuf>,
}

/// The directory, in a working tree's own git directory, holding what
/// must outlast the working tree's state directory (see
/// [`StatePaths::task_copy`]).
pub const GIT_STATE_DIR: &str = "majordomus";

impl StatePaths {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into(), git_dir: None }
    }

    /// The same, knowing the working tree's own git directory (`.git`, or
    /// `.git/worktrees/NAME` for a linked worktree).
    pub fn with_git_dir(mut self, git_dir: impl Into<PathBuf>) -> Self {
        self.git_dir = Some(git_dir.into());
        self
    }

    /// The copy of the active task's record kept in the working tree's git
    /// directory, where `git clean -x` and `rm -r .ai` do not reach: while
    /// it exists and the record does not, the task was never finished and
    /// its record is gone ([`crate::task::TaskState::here`]). `None` where
    /// the git directory is not known.
    pub fn task_copy(&self) -> Option<PathBuf> {
        self.git_dir.as_ref().map(|g| g.join(GIT_STATE_DIR).join("task.json"))
    }

    /// The directory of [`StatePaths::task_copy`], reached from the git
    /// directory without following a symbolic link.
    pub fn open_git_state(&self, create: bool) -> Option<Result<Dir, PlaceError>> {
        self.git_dir.as_ref().map(|g| confined::open_dir(g, Path::new(GIT_STATE_DIR), create))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn state_dir(&self) -> PathBuf {
        self.root.join(STATE_DIR)
    }

    pub fn task(&self) -> PathBuf {
        self.state_dir().join("task.json")
    }

    pub fn completion(&self) -> PathBuf {
        self.state_dir().join("gates.completion.json")
    }

    pub fn forge(&self) -> PathBuf {
        self.state_dir().join("forge.json")
    }

    pub fn ledger(&self) -> PathBuf {
        self.state_dir().join("ledger.jsonl")
    }

    /// The agent stop hook's loop guards: one record per host, session and
    /// agent (see [`crate::hook::HookKey`]), so one agent's blocks neither
    /// spend nor reset another's.
    pub fn hook_dir(&self) -> PathBuf {
        self.state_dir().join("hook")
    }

    /// The loop guard of one host, session and agent.
    pub fn hook_for(&self, key: &crate::hook::HookKey) -> PathBuf {
        self.hook_dir().join(key.file_name())
    }

    /// Where an older majordomus archived a task, in the worktree itself:
    /// read, never written ([`shared_archive_dir`] is where archives go).
    pub fn archive_dir(&self) -> PathBuf {
        self.state_dir().join("archive")
    }

    pub fn policy(&self) -> PathBuf {
        self.root.join(POLICY_FILE)
    }

    /// The state directory, reached from the root without following a
    /// symbolic link ([`crate::confined`]). With `create`, made where
    /// missing, with a `.gitignore` of its own so git never lists it, even
    /// where `start` never ran.
    pub fn open_state(&self, create: bool) -> Result<Dir, PlaceError> {
        let dir = confined::open_dir(&self.root, Path::new(STATE_DIR), create)?;
        if create && dir.mode(".gitignore")?.is_none() {
            dir.create(".gitignore", STATE_GITIGNORE, Perm::Private)?;
        }
        Ok(dir)
    }
}

/// The state directory's own `.gitignore`.
pub const STATE_GITIGNORE: &[u8] = b"# majordomus's own state: never tracked\n*\n";

/// True when a repository-relative path (with `/` separators) is the tool's
/// own state and must never be counted by a reading.
pub fn is_own_state(rel: &str) -> bool {
    rel == LOCAL_DIR || rel.starts_with(".ai/local/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_under_the_local_directory_are_the_tools_own() {
        assert!(is_own_state(".ai/local/state/task.json"));
        assert!(is_own_state(".ai/local"));
        assert!(!is_own_state(".ai/localish"));
        assert!(!is_own_state(".ai/repo/debt-baseline.txt"));
    }
}
