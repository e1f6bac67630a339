//! A submodule's entry against its working tree, as `git status` judges
//! it: gone when nothing is at its path, clean when its directory holds no
//! repository (not checked out), modified when the repository's HEAD is not
//! the recorded commit or (unless `submodule.<name>.ignore` or
//! `diff.ignoreSubmodules` says otherwise) its own working tree has changes
//! or untracked files. git asks the last of another `git status` run in the
//! submodule; this reading reads the submodule as it reads any repository.
//!
//! What a repository is, is git's test (`is_nonbare_repository_dir`): a
//! `.git` directory with a valid `HEAD`, an `objects` and a `refs`
//! directory (in its common directory), or a `.git` file naming one. An
//! empty `.git` directory makes no repository.

use std::path::Path;

use git2::Oid;

use super::stat::Found;
use crate::index_file::Entry;
use crate::Repo;

/// How much of a submodule's state counts, from its `ignore` setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ignore {
    None,
    Untracked,
    Dirty,
    All,
}

/// A gitlink entry of `repo` against what is at its path.
pub(super) fn compare(repo: &Repo, e: &Entry, config: &git2::Config) -> Found {
    let rel = String::from_utf8_lossy(&e.path).into_owned();
    let dir = repo.root().join(&rel);
    let Ok(meta) = std::fs::symlink_metadata(&dir) else { return Found::Deleted };
    if !meta.is_dir() {
        return Found::Modified;
    }
    let Some(head) = head_of(&dir) else { return Found::Clean };
    if head != e.id {
        return Found::Modified;
    }
    let ignore = ignore_setting(repo, config, &rel);
    if matches!(ignore, Ignore::All | Ignore::Dirty) {
        return Found::Clean;
    }
    let Ok(inner) = crate::open(&dir) else { return Found::Ask };
    match super::read(&inner) {
        Ok(tree) => {
            let untracked = ignore == Ignore::None && !tree.untracked.is_empty();
            if tree.dirty.is_empty() && tree.conflicted.is_empty() && !untracked {
                Found::Clean
            } else {
                Found::Modified
            }
        }
        Err(_) => Found::Ask,
    }
}

/// `submodule.<name>.ignore` from the configuration, else from
/// `.gitmodules`, else `diff.ignoreSubmodules`, else none.
fn ignore_setting(repo: &Repo, config: &git2::Config, path: &str) -> Ignore {
    let parse = |v: &str| match v {
        "all" => Some(Ignore::All),
        "dirty" => Some(Ignore::Dirty),
        "untracked" => Some(Ignore::Untracked),
        "none" => Some(Ignore::None),
        _ => None,
    };
    let modules = git2::Config::open(&repo.root().join(".gitmodules")).ok();
    let name = modules.as_ref().and_then(|m| {
        let entries = m.entries(Some(r"^submodule\..*\.path$")).ok()?;
        let mut found = None;
        entries
            .for_each(|entry| {
                if entry.value() == Some(path) {
                    found = entry
                        .name()
                        .and_then(|n| n.strip_prefix("submodule.")?.strip_suffix(".path"))
                        .map(String::from);
                }
            })
            .ok()?;
        found
    });
    let key = name.map(|n| format!("submodule.{n}.ignore"));
    let from = |c: &git2::Config| key.as_deref().and_then(|k| c.get_string(k).ok()).and_then(|v| parse(&v));
    from(config)
        .or_else(|| modules.as_ref().and_then(from))
        .or_else(|| config.get_string("diff.ignoresubmodules").ok().and_then(|v| parse(&v)))
        .unwrap_or(Ignore::None)
}

/// The commit HEAD names in the repository whose working tree is `dir`,
/// `None` when `dir` holds no repository or its HEAD names no commit.
pub(super) fn head_of(dir: &Path) -> Option<Oid> {
    if !is_repository(dir) {
        return None;
    }
    let git = git2::Repository::open_ext(dir, git2::RepositoryOpenFlags::NO_SEARCH, std::iter::empty::<&str>()).ok()?;
    let head = git.head().ok()?.target();
    head
}

/// Whether `dir` holds a repository of its own, by git's test.
pub(super) fn is_repository(dir: &Path) -> bool {
    let dotgit = dir.join(".git");
    let Ok(meta) = std::fs::metadata(&dotgit) else { return false };
    if meta.is_dir() {
        return is_git_directory(&dotgit);
    }
    // A `.git` file: `gitdir: PATH`, relative to the file's directory. One
    // that cannot be read at all is taken for a repository, as git takes it.
    let Ok(bytes) = crate::file::read(&dotgit) else { return true };
    let text = String::from_utf8_lossy(&bytes);
    let Some(named) = text.strip_prefix("gitdir: ") else { return false };
    let named = Path::new(named.trim_end_matches(['\n', '\r']));
    is_git_directory(&dir.join(named))
}

/// git's `is_git_directory`: a valid `HEAD`, and `objects` and `refs` in
/// its common directory.
fn is_git_directory(git_dir: &Path) -> bool {
    if !valid_head(&git_dir.join("HEAD")) {
        return false;
    }
    let common = match crate::file::read(&git_dir.join("commondir")) {
        Ok(c) => git_dir.join(String::from_utf8_lossy(&c).trim_end_matches(['\n', '\r'])),
        Err(_) => git_dir.to_path_buf(),
    };
    common.join("objects").is_dir() && common.join("refs").is_dir()
}

/// A `HEAD` that is a link into `refs/`, a `ref: refs/...` or an object id.
fn valid_head(head: &Path) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(head) else { return false };
    if meta.file_type().is_symlink() {
        return std::fs::read_link(head).is_ok_and(|t| t.as_os_str().as_encoded_bytes().starts_with(b"refs/"));
    }
    let Ok(bytes) = crate::file::read(head) else { return false };
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(255)]);
    if let Some(target) = text.strip_prefix("ref:") {
        return target.trim_start().starts_with("refs/");
    }
    let hex: String = text.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    hex.len() == 40 || hex.len() == 64
}
