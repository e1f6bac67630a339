//! Opening the repository a command runs in.

use std::path::{Path, PathBuf};

use git2::Repository;

/// An open repository with a working tree.
pub struct Repo {
    pub git: Repository,
    root: PathBuf,
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo").field("root", &self.root).finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{} is not inside a git repository", path.display())]
    NotARepository {
        path: PathBuf,
        #[source]
        source: git2::Error,
    },
    #[error("{} is a bare repository: majordomus needs a working tree", path.display())]
    Bare { path: PathBuf },
}

/// Finds the repository containing `dir`, as git would, without reading
/// `GIT_DIR` or other environment overrides.
pub fn open(dir: &Path) -> Result<Repo, OpenError> {
    let git = Repository::discover(dir).map_err(|source| OpenError::NotARepository { path: dir.into(), source })?;
    let root = match git.workdir() {
        Some(w) => w.to_path_buf(),
        None => return Err(OpenError::Bare { path: git.path().to_path_buf() }),
    };
    let root = root.canonicalize().unwrap_or(root);
    Ok(Repo { git, root })
}

impl Repo {
    /// The root of the working tree.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The repository's own git directory (`.git/worktrees/NAME` in a linked worktree).
    pub fn git_dir(&self) -> &Path {
        self.git.path()
    }

    /// The git directory shared by every worktree.
    pub fn common_dir(&self) -> &Path {
        self.git.commondir()
    }
}
