//! Repository files a sparse checkout keeps out of the working tree.
//!
//! A file outside a sparse checkout's cone is in the index, flagged
//! skip-worktree, and not in the working tree: `git status` calls it
//! unchanged, and git reads it from the index. A reading of the policy or
//! of the debt baselines that looked only in the working tree took a file
//! the repository holds for one it does not hold: a task started in such a
//! checkout had none of the policy's gates in force, and a baseline brought
//! back since (`git sparse-checkout add .ai`) was "new since the start",
//! its added entries uncounted (test/cases/351). So a file the working
//! tree lacks is read from the index where the index flags it
//! skip-worktree; one whose blob this repository does not hold (a partial
//! clone, `git clone --filter=blob:none`, fetches it only when checked
//! out) is a reading not taken, never an absent file.
//!
//! Asked only where HEAD's tree holds a path the working tree lacks, so a
//! repository without such files pays a tree lookup, not an index read.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::index_file::Index;
use crate::{Reading, Repo, Unread};

/// Each file HEAD's tree holds at `paths` (repository-relative) that the
/// working tree lacks and the index flags skip-worktree, with its content
/// from the index.
pub fn skipped(repo: &Repo, paths: &[String]) -> Reading<Vec<(String, Vec<u8>)>> {
    let lacking: Vec<&String> = paths.iter().filter(|p| lacks(repo, p) && in_head(repo, p)).collect();
    if lacking.is_empty() {
        return Ok(Vec::new());
    }
    let mut index = Index::read(&repo.git_dir().join("index")).map_err(|e| {
        Unread::repository(format!("the index could not be read to find files outside the sparse checkout: {}", e.0))
    })?;
    if index.sparse {
        index
            .expand_sparse(&repo.git)
            .map_err(|e| Unread::repository(format!("the sparse index could not be expanded: {}", e.0)))?;
    }
    let mut out = Vec::new();
    for path in lacking {
        let found = index.entries.iter().find(|e| e.stage == 0 && e.path(&index.paths) == path.as_bytes());
        let Some(entry) = found.filter(|e| e.skip_worktree) else { continue };
        let blob = repo.git.find_blob(entry.id).map_err(|e| {
            Unread::repository(format!(
                "{path} lies outside the sparse checkout, and its content ({}) is not in this repository (a partial clone fetches it only when it is checked out: git sparse-checkout add, or git fetch): {}",
                entry.id,
                e.message()
            ))
        })?;
        out.push((path.clone(), blob.content().to_vec()));
    }
    Ok(out)
}

/// The paths of the files (blobs) HEAD's tree holds under `dir` whose name
/// `want` takes; none where HEAD is unborn or holds no such directory.
pub fn in_head_under(repo: &Repo, dir: &str, want: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let Some(tree) = repo.git.head().ok().and_then(|h| h.peel_to_tree().ok()) else { return out };
    let Ok(entry) = tree.get_path(Path::new(dir)) else { return out };
    let Ok(sub) = repo.git.find_tree(entry.id()) else { return out };
    let _ = sub.walk(git2::TreeWalkMode::PreOrder, |parent, e| {
        if e.kind() == Some(git2::ObjectType::Blob) {
            let name = format!("{dir}/{parent}{}", String::from_utf8_lossy(e.name_bytes()));
            if want(&name) {
                out.push(name);
            }
        }
        git2::TreeWalkResult::Ok
    });
    out
}

/// Whether HEAD's tree holds a file at `path`.
pub fn in_head(repo: &Repo, path: &str) -> bool {
    repo.git.head().ok().and_then(|h| h.peel_to_tree().ok()).is_some_and(|t| t.get_path(Path::new(path)).is_ok())
}

/// Whether nothing is at `path` in the working tree.
fn lacks(repo: &Repo, path: &str) -> bool {
    std::fs::symlink_metadata(repo.root().join(std::ffi::OsStr::from_bytes(path.as_bytes())))
        .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound || e.raw_os_error() == Some(libc_enotdir()))
}

fn libc_enotdir() -> i32 {
    rustix::io::Errno::NOTDIR.raw_os_error()
}
