//! Where a submodule a commit records is read from, where it is not
//! checked out at the path that commit records it at.
//!
//! A commit made here recorded `vendor/lib`; a later one moved it
//! (`git mv vendor/lib third/lib`) or removed it (`git rm vendor/lib`), or
//! `git submodule deinit` took its working tree away. Every commit pushed
//! still records the gitlink, and a clone of it must fetch that commit
//! from the URL its `.gitmodules` names, so whether that URL holds it is
//! still owed; reading it only at `vendor/lib` answered `unknown` for
//! good, with no command that could bring the reading back
//! (test/cases/577). The submodule's repository is usually still here:
//! git keeps it under the superproject's git directory by the name
//! `.gitmodules` gives it (`modules/NAME`, a move keeps the name), and a
//! submodule checked out at another path from the same URL holds the
//! same remote-tracking refs. So, in order: the path itself checked out;
//! a submodule checked out now whose repository is that one, or whose URL
//! is the same; that repository itself, no longer checked out. With none,
//! nothing of it is left here ([`Place`] `None`): a URL on this machine is
//! read itself, one across a network is unread, with the clone that
//! brings the reading back.
//!
//! Read only where the path is not checked out: the common check pays one
//! `exists` per submodule, as before.

use std::path::{Path, PathBuf};

use git2::{Repository, RepositoryOpenFlags};

/// Where a submodule's repository was read, where not at its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Checked out at this other path of the working tree (moved, or the
    /// same URL checked out there).
    Checkout(String),
    /// Its repository under the superproject's git directory, checked out
    /// nowhere (removed, or deinitialized): this path.
    GitDir(String),
}

/// Where the submodule a commit records at `path` is read: `Ok(None)` at
/// `path` itself (checked out there); `Ok(Some(place))` at that place;
/// `Err(())` nowhere here. `name` is the name that commit's `.gitmodules`
/// gives it, `url` the one it names (resolved), `now` each submodule
/// checked out in the working tree with the URL HEAD names for it (read
/// only where `path` is not checked out).
pub(crate) fn locate(
    git: &Repository,
    root: &Path,
    path: &str,
    name: Option<&str>,
    url: Option<&str>,
    now: impl FnOnce() -> Vec<(String, Option<String>)>,
) -> Result<Option<Place>, ()> {
    if root.join(path).join(".git").exists() {
        return Ok(None);
    }
    let now = now();
    let gitdir = name.and_then(|n| {
        [git.path(), git.commondir()].into_iter().map(|d| d.join("modules").join(n)).find(|d| d.join("HEAD").is_file())
    });
    let own = gitdir.as_ref().and_then(|d| d.canonicalize().ok());
    let checked_out = now.iter().filter(|(p, _)| p != path && root.join(p).join(".git").exists());
    for (p, _) in checked_out.clone() {
        let Ok(sub) = open(&root.join(p)) else { continue };
        if own.is_some() && sub.commondir().canonicalize().ok() == own {
            return Ok(Some(Place::Checkout(p.clone())));
        }
    }
    if let Some(url) = url {
        for (p, u) in checked_out {
            if u.as_deref().is_some_and(|u| super::same_repository(root, u, url)) {
                return Ok(Some(Place::Checkout(p.clone())));
            }
        }
    }
    match gitdir {
        Some(d) => Ok(Some(Place::GitDir(shown(root, &d)))),
        None => Err(()),
    }
}

/// The directory a place names.
pub(crate) fn dir_of(root: &Path, place: &Place) -> PathBuf {
    match place {
        Place::Checkout(p) | Place::GitDir(p) => root.join(p),
    }
}

/// A submodule's repository at `dir`: a working tree, or a git directory
/// no working tree uses any more (its `core.worktree` naming a path since
/// removed, read as bare: only its refs, objects and configuration are).
pub(crate) fn open(dir: &Path) -> Result<Repository, git2::Error> {
    let flags = RepositoryOpenFlags::NO_SEARCH;
    Repository::open_ext(dir, flags, std::iter::empty::<&std::ffi::OsStr>()).or_else(|e| {
        if dir.join("HEAD").is_file() && dir.join("objects").is_dir() {
            Repository::open_bare(dir)
        } else {
            Err(e)
        }
    })
}

/// Why what `git`'s history holds cannot be read: a grafts file in its git
/// directory with a graft in it (or one that cannot be read). libgit2
/// honours `info/grafts` and cannot be told not to, so one line there
/// makes a commit nobody pushed look held by a remote-tracking ref; git
/// honours it too, and a fresh clone does not (test/cases/624). Read once
/// per submodule repository opened (its `pushed` readings), one failed
/// open where there is none.
pub(crate) fn grafted(git: &Repository) -> Option<String> {
    let (common, own) = (git.commondir(), git.path());
    let dirs: &[&Path] = if common == own { &[common] } else { &[common, own] };
    match super::super::evidence::grafts_in(dirs) {
        Ok(None) => None,
        Ok(Some(path)) => Some(format!(
            "{} rewrites the parents of commits in the submodule's repository, and libgit2 (which majordomus reads history with) honours it and cannot be told not to, so which commits its remote holds cannot be read while it exists; remove it",
            path.display()
        )),
        Err(e) => Some(format!("the grafts file of the submodule's repository cannot be read ({})", e.reason)),
    }
}

/// `dir` relative to the working tree's root where it is inside it.
fn shown(root: &Path, dir: &Path) -> String {
    dir.strip_prefix(root).unwrap_or(dir).to_string_lossy().into_owned()
}

/// Each submodule's name and path in a `.gitmodules` file.
pub(crate) fn names(text: &str) -> Vec<(String, String)> {
    super::declared(text).into_iter().filter_map(|d| Some((d.name?, d.path))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_submodule_moved_removed_or_gone_is_read_where_its_repository_is() {
        let t = TestRepo::with_commit();
        let _bare = t.with_submodule();
        let git = Repository::open(t.path()).expect("open");
        let root = t.path();
        let where_ = |now: Vec<(String, Option<String>)>| locate(&git, root, "lib", Some("lib"), None, || now);
        assert_eq!(where_(vec![]), Ok(None), "checked out at its path");
        std::fs::create_dir_all(root.join("third")).expect("mkdir");
        t.git(&["mv", "lib", "third/lib"]);
        t.commit_all("moved");
        let now = vec![("third/lib".to_string(), None)];
        assert_eq!(where_(now.clone()), Ok(Some(Place::Checkout("third/lib".into()))));
        t.git(&["rm", "-q", "third/lib"]);
        t.commit_all("removed");
        assert_eq!(where_(vec![]), Ok(Some(Place::GitDir(".git/modules/lib".into()))));
        assert!(open(&dir_of(root, &Place::GitDir(".git/modules/lib".into()))).is_ok(), "its worktree gone, read bare");
        std::fs::remove_dir_all(root.join(".git/modules")).expect("rm");
        assert_eq!(where_(vec![]), Err(()));
    }

    #[test]
    fn a_submodule_whose_grafts_file_holds_a_graft_is_unread() {
        let t = TestRepo::with_commit();
        let _bare = t.with_submodule();
        let git = open(&t.path().join("lib")).expect("open");
        assert_eq!(grafted(&git), None, "no grafts file");
        let file = t.path().join(".git/modules/lib/info/grafts");
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(&file, "\n").expect("write");
        assert_eq!(grafted(&git), None, "an empty grafts file grafts nothing");
        let head = git.head().expect("head").target().expect("id");
        std::fs::write(&file, format!("{head}\n")).expect("write");
        let why = grafted(&git).expect("a graft");
        assert!(why.contains("modules/lib/info/grafts rewrites the parents"), "{why}");
    }

    #[test]
    fn the_names_of_a_gitmodules_file_are_read_with_their_paths() {
        let text = "[submodule \"vendor/lib\"]\n\tpath = third/lib\n\turl = ../lib\n[core]\n\tpath = x\n[submodule \"b\"]\npath=b\n";
        assert_eq!(
            names(text),
            [("vendor/lib".to_string(), "third/lib".to_string()), ("b".to_string(), "b".to_string())]
        );
    }
}
