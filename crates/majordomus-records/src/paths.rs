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
    common_dir: Option<PathBuf>,
}

/// The directory, under the common git directory's [`GIT_STATE_DIR`],
/// holding a second copy of each linked worktree's task record, by the
/// worktree's name ([`StatePaths::worktree_copy`]).
pub const WORKTREE_COPIES: &str = "worktrees";

/// The directory, in a working tree's own git directory, holding what
/// must outlast the working tree's state directory (see
/// [`StatePaths::task_copy`]).
pub const GIT_STATE_DIR: &str = "majordomus";

impl StatePaths {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into(), git_dir: None, common_dir: None }
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

    /// The same, knowing the repository's common git directory: where it is
    /// not the working tree's own, the working tree is a linked one
    /// ([`StatePaths::worktree_copy`]).
    pub fn with_common_dir(mut self, common_dir: impl Into<PathBuf>) -> Self {
        self.common_dir = Some(common_dir.into());
        self
    }

    /// The name of the linked worktree this is (its git directory is
    /// `<common>/worktrees/NAME`), `None` for the main worktree.
    fn linked_name(&self) -> Option<String> {
        let (git_dir, common) = (self.git_dir.as_ref()?, self.common_dir.as_ref()?);
        (git_dir.parent()? == common.join("worktrees")).then_some(())?;
        git_dir.file_name()?.to_str().map(str::to_string)
    }

    /// A linked worktree's second copy of its task record, in the common
    /// git directory: `git worktree remove` deletes the worktree's own git
    /// directory, the first copy with it, and this one says a task was left
    /// there (the stop hook's `orphan.rs`; test/cases/343). `None` for the
    /// main worktree.
    pub fn worktree_copy(&self) -> Option<PathBuf> {
        let name = self.linked_name()?;
        Some(self.common_dir.as_ref()?.join(GIT_STATE_DIR).join(WORKTREE_COPIES).join(format!("{name}.json")))
    }

    /// The directory of [`StatePaths::worktree_copy`], reached from the
    /// common git directory without following a link, and the copy's name in it.
    pub fn open_worktree_copies(&self, create: bool) -> Option<(Result<Dir, PlaceError>, String)> {
        let name = self.linked_name()?;
        let rel = Path::new(GIT_STATE_DIR).join(WORKTREE_COPIES);
        Some((confined::open_dir(self.common_dir.as_ref()?, &rel, create), format!("{name}.json")))
    }

    /// The copy of the task record to read where the record is gone: the
    /// one in the working tree's git directory, else, for a linked worktree
    /// put back under its name after it was removed, the one in the common
    /// git directory.
    pub fn kept_copy(&self) -> Option<PathBuf> {
        let first = self.task_copy()?;
        if first.exists() {
            return Some(first);
        }
        self.worktree_copy().filter(|c| c.exists()).or(Some(first))
    }

    /// Every linked worktree's copy kept in `common_dir`, by worktree name.
    pub fn worktree_copies(common_dir: &Path) -> Vec<(String, PathBuf)> {
        let dir = common_dir.join(GIT_STATE_DIR).join(WORKTREE_COPIES);
        let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
        let mut out: Vec<(String, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let path = e.path();
                let name = path.file_name()?.to_str()?.strip_suffix(".json")?.to_string();
                Some((name, path))
            })
            .collect();
        out.sort();
        out
    }

    /// The directory of [`StatePaths::task_copy`], reached from the git
    /// directory without following a symbolic link.
    pub fn open_git_state(&self, create: bool) -> Option<Result<Dir, PlaceError>> {
        self.git_dir.as_ref().map(|g| confined::open_dir(g, Path::new(GIT_STATE_DIR), create))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The working tree's own git directory, where known.
    pub fn git_dir(&self) -> Option<&Path> {
        self.git_dir.as_deref()
    }

    /// Whether this is a linked worktree (`git worktree add`).
    pub fn is_linked(&self) -> bool {
        self.linked_name().is_some()
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

    #[test]
    fn only_a_linked_worktree_keeps_a_second_copy_in_the_common_git_directory() {
        let linked = StatePaths::new("/w/x").with_git_dir("/r/.git/worktrees/x/").with_common_dir("/r/.git/");
        assert_eq!(linked.worktree_copy(), Some(PathBuf::from("/r/.git/majordomus/worktrees/x.json")));
        let main = StatePaths::new("/r").with_git_dir("/r/.git/").with_common_dir("/r/.git");
        assert_eq!(main.worktree_copy(), None);
        assert_eq!(StatePaths::new("/r").with_git_dir("/r/.git").worktree_copy(), None);
    }
}
