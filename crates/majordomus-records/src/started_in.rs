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

/// Why a record this working tree's git directory holds no copy of, whose
/// task started at `started`, is not this tree's: that root is another
/// working tree of this same repository still (its git directory is not
/// this one, and shares this one's common directory), where `start` kept
/// the copy. `start` keeps a copy wherever it records a root, and a move
/// takes the copy along, so such a record was copied here from the tree
/// the task started in (`cp -a ../main/.ai/local/state .ai/local/`): read
/// here, `committed` and `no-untracked` judged this tree's files while the
/// task's work stood uncommitted there, and `finish --outcome completed`
/// archived the task as done (test/cases/562). `None` where the start root
/// is this one, gone, of another repository, or of this very git directory
/// ([`elsewhere`]'s), and for a record written before roots were kept.
pub fn copied_from(paths: &StatePaths, started: Option<&RepoPath>) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let started = started?;
    let now = paths.root();
    if started.as_bytes() == now.as_os_str().as_bytes() {
        return None;
    }
    let started_root = started.under(Path::new(""));
    let ours = std::fs::canonicalize(paths.git_dir()?).ok()?;
    let theirs = git_dir_of(&started_root)?;
    if theirs == ours || same_place(&started_root, now) || common_of(&theirs)? != common_of(&ours)? {
        return None;
    }
    let task = StatePaths::new(now).task();
    let record = task.strip_prefix(now).unwrap_or(&task).display();
    Some(format!(
        "the task record {record} was copied here from {started}, another working tree of this repository, where \
         the task started and is read (`majordomus -C {started} check`): this working tree's git directory holds \
         no copy of it, so no task started here, and the work left there is not this tree's to vouch for. \
         `rm {record}` leaves this tree with no task"
    ))
}

/// Whether two paths lead to the same directory.
fn same_place(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The common git directory of the canonical git directory `git_dir`: the
/// one its `commondir` file names (a linked worktree's), else itself.
fn common_of(git_dir: &Path) -> Option<PathBuf> {
    match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) => std::fs::canonicalize(git_dir.join(text.lines().next()?.trim())).ok(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(git_dir.to_path_buf()),
        Err(_) => None,
    }
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
    fn a_record_copied_from_another_worktree_of_this_repository_is_that_trees() {
        let t = tempfile::tempdir().expect("tempdir");
        let (main, linked) = (t.path().join("main"), t.path().join("linked"));
        let common = main.join(".git");
        let own = common.join("worktrees/linked");
        std::fs::create_dir_all(&own).expect("mkdir");
        std::fs::create_dir_all(&linked).expect("mkdir");
        std::fs::write(own.join("commondir"), "../..\n").expect("write");
        std::fs::write(linked.join(".git"), format!("gitdir: {}\n", own.display())).expect("write");
        let in_linked = StatePaths::new(&linked).with_git_dir(&own).with_common_dir(&common);
        let said = copied_from(&in_linked, Some(&recorded(&main))).expect("the main tree's record");
        assert!(said.contains(&main.display().to_string()) && said.contains("rm .ai/local/state/task.json"), "{said}");
        // And the other way: the linked tree's record copied into the main one.
        let in_main = StatePaths::new(&main).with_git_dir(&common).with_common_dir(&common);
        assert!(copied_from(&in_main, Some(&recorded(&linked))).is_some());
        // Its own root, a root gone, another repository: not copied.
        assert_eq!(copied_from(&in_linked, Some(&recorded(&linked))), None);
        assert_eq!(copied_from(&in_linked, Some(&recorded(&t.path().join("gone")))), None);
        let other = t.path().join("other");
        std::fs::create_dir_all(other.join(".git")).expect("mkdir");
        assert_eq!(copied_from(&in_linked, Some(&recorded(&other))), None);
        assert_eq!(copied_from(&in_linked, None), None, "a record that kept no root");
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
