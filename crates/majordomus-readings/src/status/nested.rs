//! Whether a directory holds a repository of its own, by git's test
//! (`is_nonbare_repository_dir`): a `.git` directory with a valid `HEAD`,
//! an `objects` and a `refs` directory (in its common directory), or a
//! `.git` file naming one. An empty `.git` directory makes no repository.

use std::path::Path;

use git2::Oid;

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
