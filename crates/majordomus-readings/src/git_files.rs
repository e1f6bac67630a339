//! The files of a git directory that libgit2 opens as soon as it opens the
//! repository, looked at before it does.
//!
//! libgit2 opens git's own files with a plain, blocking `open`: a FIFO put
//! where one of them was (`rm .git/index; mkfifo .git/index`) makes that
//! `open` wait for a writer, forever if none comes, and every command
//! reading the repository with it (test/cases/545). majordomus's own
//! readers of git files open without blocking (`crate::file`), but libgit2
//! cannot be told to. So before the repository is opened, the files its
//! open and a `check`'s first readings reach are looked at without opening
//! them (`lstat`, and `stat` through a symbolic link, which git follows):
//! one that is there and is not a regular file makes the repository
//! unreadable, naming it. A missing file is no matter here: git reads most
//! of them only where they are. What this list cannot reach (a loose
//! object, a ref file other than the current branch's, a file a
//! configuration includes) is left to the command's own watch, which ends
//! a reading that never returns (the command line's `watch.rs`).

use std::path::{Path, PathBuf};

use rustix::fs::FileType;

/// The files, relative to the git directory (or the common directory of a
/// linked worktree's), that libgit2 opens with a blocking `open` as it
/// opens the repository or in a `check`'s first readings: each one of
/// these, and only these, made `check` wait forever when a FIFO took its
/// place (tried one by one, with `timeout`, on a repository with an
/// upstream, packed refs and a task). The others git keeps there
/// (`FETCH_HEAD`, `logs/HEAD`, `info/exclude`, `MERGE_HEAD`, the
/// sequencer's) majordomus reads itself, without blocking, and a FIFO
/// there leaves the question reading it unknown (test/cases/315).
/// `config.worktree` is read where `extensions.worktreeConfig` says so.
/// Each is looked at in both directories: about twenty `lstat`s, a few
/// microseconds, at every open.
const OPENED_AT_ONCE: &[&str] = &[
    "commondir",
    "gitdir",
    "config",
    "config.worktree",
    "index",
    "packed-refs",
    "shallow",
    "info/grafts",
    "objects/info/alternates",
    "objects/pack/multi-pack-index",
];

/// The first git file that the open of the git directory `git_dir` would
/// wait on, as a sentence naming it and what it is; none when every one
/// is a regular file or missing. The common directory is read from
/// `commondir` (once it is known to be a file) and looked at too, and so
/// is the ref file of the branch `HEAD` names.
pub fn not_a_file_in(git_dir: &Path) -> Option<String> {
    if let Some(said) = first_not_a_file(git_dir) {
        return Some(said);
    }
    let common = common_dir(git_dir);
    if let Some(common) = common.as_deref().filter(|c| *c != git_dir) {
        if let Some(said) = first_not_a_file(common) {
            return Some(said);
        }
    }
    let branch = current_branch(git_dir)?;
    let holder = common.as_deref().unwrap_or(git_dir);
    said_of(&holder.join(&branch))
}

/// The first of [`OPENED_AT_ONCE`] in `dir` that is not a regular file.
fn first_not_a_file(dir: &Path) -> Option<String> {
    OPENED_AT_ONCE.iter().find_map(|name| said_of(&dir.join(name)))
}

/// The git directory `commondir` names, as git reads it (relative to the
/// git directory); none where it is missing or cannot be read.
fn common_dir(git_dir: &Path) -> Option<PathBuf> {
    let bytes = crate::file::read(&git_dir.join("commondir")).ok()?;
    let named = String::from_utf8(bytes).ok()?;
    let named = named.trim_end_matches(['\n', '\r']);
    (!named.is_empty()).then(|| git_dir.join(named))
}

/// The ref `HEAD` names (`ref: refs/heads/main`), read without blocking.
fn current_branch(git_dir: &Path) -> Option<String> {
    let bytes = crate::file::read(&git_dir.join("HEAD")).ok()?;
    let head = String::from_utf8(bytes).ok()?;
    let name = head.trim_end().strip_prefix("ref:")?.trim();
    // Only a name git would accept: never a path out of the directory.
    crate::refs::local::valid_refname(name).then(|| name.to_string())
}

/// What is wrong with `path` as a git file, as a sentence naming it: it is
/// there and is not a regular file, itself or where its symbolic link
/// leads. Missing, or not looked at (a permission refused), is nothing:
/// an open of it would not wait.
fn said_of(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::symlink_metadata(path).ok()?;
    let (meta, through) = if meta.file_type().is_symlink() {
        (std::fs::metadata(path).ok()?, " (through the symbolic link there)")
    } else {
        (meta, "")
    };
    if meta.is_file() {
        return None;
    }
    let kind = crate::file::kind_name(FileType::from_raw_mode(meta.mode()));
    Some(format!(
        "{} is {kind}{through}, not a regular file, and git reads it as soon as the repository is opened (an open of a FIFO waits for a writer that may never come); put the regular file back",
        path.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;
    use rustix::fs::Mode;

    #[test]
    fn a_fifo_at_a_file_the_open_reads_is_named_and_a_plain_repository_is_not() {
        let t = TestRepo::with_commit();
        let git_dir = t.path().join(".git");
        assert_eq!(not_a_file_in(&git_dir), None, "a plain repository");
        for name in ["index", "config", "packed-refs", "commondir", "objects/info/alternates"] {
            let path = git_dir.join(name);
            let _ = std::fs::remove_file(&path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            rustix::fs::mknodat(rustix::fs::CWD, &path, FileType::Fifo, Mode::from_raw_mode(0o600), 0).expect("mkfifo");
            let said = not_a_file_in(&git_dir).expect("a FIFO is named");
            assert!(said.contains(name) && said.contains("FIFO"), "{said}");
            std::fs::remove_file(&path).expect("rm");
        }
    }
}
