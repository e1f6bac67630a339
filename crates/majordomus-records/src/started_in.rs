//! The working tree a task started in, against the one git names now.
//!
//! The task record is found under the root git names, and its copy in the
//! git directory. `git config core.worktree DIR` makes git name another
//! root for the same git directory: a clean copy of the
//! tree, say, with the record put there. Read there, `committed` and
//! `no-untracked` would judge the copy while the tree the task started in
//! still holds its work. So a record whose start root is another working
//! tree of this same git directory still (its `.git` is this git directory,
//! or a gitfile naming it) is not this root's: it is unreadable here, and
//! what points git back is the remedy (test/cases/534). A repository moved
//! whole (`mv repo repo2`, `git worktree move`) left no tree of this git
//! directory at its old root, and reads as it did.

use std::path::{Path, PathBuf};

use crate::{RepoPath, StatePaths};

/// The most bytes of a gitfile read: one line naming a directory.
const MAX_GITFILE: u64 = 64 * 1024;

/// `root` as the task record keeps it ([`crate::task::Snapshot::root`]).
pub fn recorded(root: &Path) -> RepoPath {
    use std::os::unix::ffi::OsStrExt;
    RepoPath::from_bytes(root.as_os_str().as_bytes())
}

/// Why a record whose task started at `started` is not the record of the
/// working tree `paths` names, where that start root is another working
/// tree of the same git directory still: the sentence names both roots and
/// what points git back. `None` where it is this root (the common case: one
/// comparison of bytes), where the start root is gone or no longer a tree of
/// this git directory (a move), where the git directory is not known, and
/// for a record written before roots were kept.
pub fn elsewhere(paths: &StatePaths, started: Option<&RepoPath>) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let started = started?;
    let now = paths.root();
    if started.as_bytes() == now.as_os_str().as_bytes() {
        return None;
    }
    let started_root = started.under(Path::new(""));
    let git_dir = std::fs::canonicalize(paths.git_dir()?).ok()?;
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(&started_root, now) || git_dir_of(&started_root)? != git_dir {
        return None;
    }
    Some(format!(
        "the task started in {}, which is still a working tree of this repository, and git now names {} as its \
         working tree (`core.worktree` points it there): the record here is not this tree's, \
         and the work is read where the task started. {} points git back at {}",
        started,
        recorded(now),
        undo(paths),
        started,
    ))
}

/// The git directory the working tree at `root` belongs to, canonical:
/// its `.git` directory, or the one its gitfile names. `None` where it has
/// neither (gone, or never a working tree).
fn git_dir_of(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    let meta = std::fs::metadata(&dot_git).ok()?;
    if meta.is_dir() {
        return std::fs::canonicalize(&dot_git).ok();
    }
    if !meta.is_file() || meta.len() > MAX_GITFILE {
        return None;
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let named = text.lines().next()?.strip_prefix("gitdir:")?.trim();
    std::fs::canonicalize(root.join(named)).ok()
}

/// The command that undoes the repointing: the configuration of this
/// worktree (a linked worktree keeps its own in `config.worktree`). The
/// repository is opened by its configuration, not `GIT_WORK_TREE`.
fn undo(paths: &StatePaths) -> &'static str {
    if paths.is_linked() {
        "`git config --worktree --unset core.worktree`"
    } else {
        "`git config --unset core.worktree`"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository's `.git` at `dir`, with `core.worktree` pointed at
    /// `copy`: the paths git would give.
    fn repointed(dir: &Path, copy: &Path) -> StatePaths {
        std::fs::create_dir_all(dir.join(".git")).expect("mkdir");
        std::fs::create_dir_all(copy).expect("mkdir");
        StatePaths::new(copy).with_git_dir(dir.join(".git")).with_common_dir(dir.join(".git"))
    }

    #[test]
    fn the_same_root_is_never_elsewhere() {
        let t = tempfile::tempdir().expect("tempdir");
        let paths = StatePaths::new(t.path()).with_git_dir(t.path().join(".git"));
        assert_eq!(elsewhere(&paths, Some(&recorded(t.path()))), None);
    }

    #[test]
    fn a_start_root_still_a_tree_of_this_git_directory_is_named_with_the_undo() {
        let t = tempfile::tempdir().expect("tempdir");
        let (repo, copy) = (t.path().join("repo"), t.path().join("copy"));
        let paths = repointed(&repo, &copy);
        let said = elsewhere(&paths, Some(&recorded(&repo))).expect("the start root is still a tree");
        assert!(said.contains(&repo.display().to_string()) && said.contains(&copy.display().to_string()), "{said}");
        assert!(said.contains("git config --unset core.worktree"), "{said}");
    }

    #[test]
    fn a_gitfile_naming_this_git_directory_is_a_tree_of_it() {
        let t = tempfile::tempdir().expect("tempdir");
        let (git, wt, copy) = (t.path().join("g"), t.path().join("wt"), t.path().join("copy"));
        std::fs::create_dir_all(&git).expect("mkdir");
        std::fs::create_dir_all(&wt).expect("mkdir");
        std::fs::create_dir_all(&copy).expect("mkdir");
        std::fs::write(wt.join(".git"), "gitdir: ../g\n").expect("write");
        let paths = StatePaths::new(&copy).with_git_dir(&git);
        assert!(elsewhere(&paths, Some(&recorded(&wt))).is_some());
    }

    #[test]
    fn a_start_root_gone_or_another_repository_is_a_move() {
        let t = tempfile::tempdir().expect("tempdir");
        let (repo, moved) = (t.path().join("repo"), t.path().join("moved"));
        let paths = repointed(&moved, &moved);
        assert_eq!(elsewhere(&paths, Some(&recorded(&repo))), None, "gone");
        std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
        assert_eq!(elsewhere(&paths, Some(&recorded(&repo))), None, "another repository at the old root");
        assert_eq!(elsewhere(&paths, None), None, "a record that kept no root");
    }
}
