//! Submodules whose recorded commit changed since the start, and whether
//! the commit they now point at is on the submodule's remote.
//!
//! A superproject records a commit of each submodule. When the task moves
//! that record to a commit made in the submodule and pushes only the
//! superproject, everyone else fetches a superproject that points at a
//! commit they cannot fetch. So each submodule whose commit in HEAD's tree
//! differs from the start commit's must point at a commit one of the
//! submodule's remote-tracking refs holds.
//!
//! The submodule has no start snapshot of its own, so its refs are
//! evidence only when their reflog's newest line is a clone, fetch or push
//! of their remote (the same reading as the superproject's,
//! [`super::evidence`]), and never when the remote's URL is the submodule
//! itself. HEAD's `.gitmodules` names the submodules, and the index's
//! gitlink entries name the rest: a repository committed into the
//! superproject with `git add sub` and no `.gitmodules` (git's "embedded
//! repository") points at commits only this disk holds just the same
//! (test/cases/286). A repository with neither costs one tree lookup and a
//! pass over the index already read.

use std::path::Path;

use git2::{ObjectType, Oid, Repository, RepositoryOpenFlags};

use super::evidence::{from_remote, points_at};
use crate::reflog;
use crate::{Reading, Repo, Unread};

/// A submodule whose recorded commit changed since the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submodule {
    pub path: String,
    /// The commit HEAD's tree records.
    pub commit: String,
    pub on_remote: OnRemote,
}

/// Whether the submodule's remote holds its recorded commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnRemote {
    /// This remote-tracking ref of the submodule holds it.
    Held(String),
    /// None of its counted remote-tracking refs does.
    Missing,
    /// The submodule cannot be read here, and why.
    Unread(String),
}

/// The submodules whose commit in `head`'s tree differs from `start`'s
/// (a submodule new since the start included), each with whether its
/// remote holds that commit.
pub fn changed(repo: &Repo, head: &str, start: &str) -> Reading<Vec<Submodule>> {
    let tree_of = |id: &str| -> Reading<git2::Tree<'_>> {
        let oid = Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))?;
        repo.git.find_commit(oid).and_then(|c| c.tree()).map_err(|e| Unread::git(&format!("the tree of {id}"), &e))
    };
    let head_tree = tree_of(head)?;
    let mut listed = match head_tree.get_path(Path::new(".gitmodules")) {
        Ok(entry) => {
            let blob = repo.git.find_blob(entry.id()).map_err(|e| Unread::git(".gitmodules", &e))?;
            paths(&String::from_utf8_lossy(blob.content()))
        }
        Err(_) => Vec::new(),
    };
    if let Ok(index) = repo.index_file() {
        for e in index.entries.iter().filter(|e| e.mode == GITLINK && e.stage == 0) {
            let path = String::from_utf8_lossy(e.path(&index.paths)).into_owned();
            if !listed.contains(&path) {
                listed.push(path);
            }
        }
    }
    if listed.is_empty() {
        return Ok(Vec::new());
    }
    let start_tree = tree_of(start)?;
    let gitlink = |tree: &git2::Tree<'_>, path: &str| {
        tree.get_path(Path::new(path)).ok().filter(|e| e.kind() == Some(ObjectType::Commit)).map(|e| e.id())
    };
    let mut out = Vec::new();
    for path in listed {
        let Some(now) = gitlink(&head_tree, &path) else { continue };
        if gitlink(&start_tree, &path) == Some(now) {
            continue;
        }
        let on_remote = on_remote(&repo.root().join(&path), now);
        out.push(Submodule { path, commit: now.to_string(), on_remote });
    }
    Ok(out)
}

/// An index entry's mode for a gitlink (a submodule's commit).
const GITLINK: u32 = 0o160000;

/// The `path = ...` values of a `.gitmodules` file.
fn paths(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let (key, value) = l.split_once('=')?;
            (key.trim() == "path").then(|| value.trim().trim_matches('"').to_string())
        })
        .collect()
}

/// Whether a counted remote-tracking ref of the submodule checked out at
/// `dir` holds `commit`.
fn on_remote(dir: &Path, commit: Oid) -> OnRemote {
    let sub = match Repository::open_ext(dir, RepositoryOpenFlags::NO_SEARCH, std::iter::empty::<&std::ffi::OsStr>()) {
        Ok(r) => r,
        Err(e) => return OnRemote::Unread(format!("it is not checked out here ({})", e.message())),
    };
    match held_by(&sub, dir, commit) {
        Ok(Some(refname)) => OnRemote::Held(refname),
        Ok(None) => OnRemote::Missing,
        Err(e) => OnRemote::Unread(e.message().to_string()),
    }
}

fn held_by(sub: &Repository, dir: &Path, commit: Oid) -> Result<Option<String>, git2::Error> {
    let config = sub.config()?.snapshot()?;
    let mut counted: Vec<(String, Oid)> = Vec::new();
    for reference in sub.references_glob("refs/remotes/*")? {
        let reference = reference?;
        let (Some(name), Some(target)) = (reference.name(), reference.target()) else { continue };
        let Some(remote) = name.strip_prefix("refs/remotes/").and_then(|r| r.split('/').next()) else { continue };
        let url = config.get_string(&format!("remote.{remote}.url")).ok();
        if url.as_deref().is_some_and(|u| points_at(dir, sub.commondir(), u)) {
            continue;
        }
        let last = reflog::last_line(&reflog::log_of(sub.commondir(), name)).ok().flatten();
        if last.is_some_and(|l| l.new == target.to_string() && from_remote(dir, &l, remote, url.as_deref())) {
            counted.push((name.to_string(), target));
        }
    }
    if let Some((name, _)) = counted.iter().find(|(_, t)| *t == commit) {
        return Ok(Some(name.clone()));
    }
    for (name, tip) in &counted {
        if sub.graph_descendant_of(*tip, commit).unwrap_or(false) {
            return Ok(Some(name.clone()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    /// A superproject with a submodule `lib` cloned from a bare `lib.git`,
    /// committed; returns the bare repository's directory.
    fn with_submodule(t: &TestRepo) -> majordomus_testkit::TempDir {
        let bare = tempfile::Builder::new().prefix("majordomus-lib-").tempdir().expect("tempdir");
        let seed = tempfile::Builder::new().prefix("majordomus-seed-").tempdir().expect("tempdir");
        t.git_in(bare.path(), &["init", "-q", "--bare", "-b", "main"]);
        t.git_in(seed.path(), &["clone", "-q", bare.path().to_str().expect("utf-8"), "."]);
        t.git_in(seed.path(), &["commit", "-q", "--allow-empty", "-m", "lib"]);
        t.git_in(seed.path(), &["push", "-q", "origin", "HEAD:main"]);
        let url = bare.path().to_str().expect("utf-8");
        t.git(&["-c", "protocol.file.allow=always", "submodule", "--quiet", "add", url, "lib"]);
        t.commit_all("lib added");
        bare
    }

    #[test]
    fn a_submodule_pointing_at_an_unpushed_commit_is_missing_and_a_pushed_one_held() {
        let t = TestRepo::with_commit();
        let _bare = with_submodule(&t);
        let start = t.head();
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(changed(&repo, &start, &start).expect("read"), vec![]);
        let lib = t.path().join("lib");
        t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "lib: new"]);
        t.git(&["add", "lib"]);
        let head = t.commit_all("use lib's new commit");
        let found = changed(&repo, &head, &start).expect("read");
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].path.as_str(), &found[0].on_remote), ("lib", &OnRemote::Missing));
        t.git_in(&lib, &["push", "-q", "origin", "HEAD:main"]);
        let found = changed(&repo, &head, &start).expect("read");
        assert_eq!(found[0].on_remote, OnRemote::Held("refs/remotes/origin/main".into()));
        // A remote-tracking ref moved by hand is not the submodule's remote.
        t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "lib: newer"]);
        t.git_in(&lib, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
        t.git(&["add", "lib"]);
        let head = t.commit_all("use lib's newer commit");
        assert_eq!(changed(&repo, &head, &start).expect("read")[0].on_remote, OnRemote::Missing);
    }

    #[test]
    fn the_paths_of_a_gitmodules_file_are_read() {
        let text = "[submodule \"a\"]\n\tpath = vendor/a\n\turl = ../a.git\n[submodule \"b\"]\n  path=b\n";
        assert_eq!(paths(text), ["vendor/a", "b"]);
    }
}
