//! The baselines in a commit's tree, all read in one walk of that tree.
//!
//! Read only where the task record holds no snapshot of the baselines. A
//! commit can hold a symbolic link where the working tree's reader
//! (`walk.rs`) would follow one: named as a baseline, or for `.ai` or
//! `.ai/repo` themselves, or leading to a directory. Following it inside a
//! tree is not done here; the reading is refused, naming the link, so the
//! two sides are never read differently (a link's text read as entries, or
//! a linked directory read as empty).

use std::path::Path;

use git2::{ObjectType, TreeWalkMode, TreeWalkResult};
use majordomus_records::paths::REPO_DIR;

use super::{entries, shown, Found, SUFFIX};
use crate::{Reading, Repo, Unread};

/// A tree entry's mode for a symbolic link.
const MODE_LINK: i32 = 0o120000;

pub fn read_commit(repo: &Repo, commit: &str) -> Reading<Found> {
    let oid = git2::Oid::from_str(commit).map_err(|e| Unread::git(&format!("commit id {commit}"), &e))?;
    let commit_obj = repo.git.find_commit(oid).map_err(|_| Unread::start_commit_missing(commit))?;
    let tree = commit_obj.tree().map_err(|e| Unread::git("the start commit's tree", &e))?;
    let mut out = Found::default();
    for dir in [".ai", REPO_DIR] {
        if let Ok(entry) = tree.get_path(Path::new(dir)) {
            if entry.filemode() == MODE_LINK {
                return Err(refused(dir, "is a symbolic link"));
            }
        }
    }
    let sub = match tree.get_path(Path::new(REPO_DIR)) {
        Ok(entry) => entry.to_object(&repo.git).map_err(|e| Unread::git(REPO_DIR, &e))?,
        Err(_) => return Ok(out),
    };
    let Some(sub) = sub.as_tree() else { return Ok(out) };
    let mut failed = None;
    sub.walk(TreeWalkMode::PreOrder, |parent, entry| {
        let name = entry.name_bytes();
        let Ok(name) = std::str::from_utf8(name) else {
            if entry.kind() == Some(ObjectType::Tree) || name.ends_with(SUFFIX.as_bytes()) {
                failed = Some(refused(&format!("{REPO_DIR}/{parent}{}", shown(name)), "has a name that is not UTF-8"));
                return TreeWalkResult::Abort;
            }
            return TreeWalkResult::Ok;
        };
        let path = format!("{REPO_DIR}/{parent}{name}");
        if entry.filemode() == MODE_LINK {
            if name.ends_with(SUFFIX) || leads_to_a_tree(repo, &tree, &path, entry.id()) {
                failed = Some(refused(&path, "is a symbolic link"));
                return TreeWalkResult::Abort;
            }
            return TreeWalkResult::Ok;
        }
        if entry.kind() == Some(ObjectType::Blob) && name.ends_with(SUFFIX) {
            match repo.git.find_blob(entry.id()) {
                Ok(blob) => {
                    out.read_from.insert(path.clone(), (path.clone(), entry.id()));
                    out.baselines.insert(path, entries(blob.content()));
                }
                Err(e) => {
                    failed = Some(Unread::git(&path, &e));
                    return TreeWalkResult::Abort;
                }
            }
        }
        TreeWalkResult::Ok
    })
    .ok();
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn refused(path: &str, what: &str) -> Unread {
    Unread::repository(format!(
        "the start commit's {path} {what}, which is not followed in a commit, so the baselines at the start cannot be read from it"
    ))
}

/// Whether the link at `path` in `tree`, whose blob is `id`, leads to a
/// directory of that tree (a link whose target cannot be found in it, or
/// lies outside it, is taken to lead to none).
fn leads_to_a_tree(repo: &Repo, tree: &git2::Tree<'_>, path: &str, id: git2::Oid) -> bool {
    let Ok(blob) = repo.git.find_blob(id) else { return true };
    let Ok(target) = std::str::from_utf8(blob.content()) else { return true };
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop();
    if target.starts_with('/') {
        return false;
    }
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return false;
                }
            }
            p => parts.push(p),
        }
    }
    tree.get_path(Path::new(&parts.join("/"))).is_ok_and(|e| e.kind() == Some(ObjectType::Tree))
}
