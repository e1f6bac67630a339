//! Linked worktrees: their names and paths.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::{Reading, Repo, Unread};

/// Linked worktrees by name, with their paths (the main worktree is not one).
pub fn read(repo: &Repo) -> Reading<BTreeMap<String, String>> {
    let names = repo.git.worktrees().map_err(|e| Unread::git("the linked worktrees", &e))?;
    let mut out = BTreeMap::new();
    for name in names.iter().flatten() {
        let path = repo.git.find_worktree(name).map(|w| w.path().display().to_string()).unwrap_or_default();
        out.insert(name.to_string(), path);
    }
    Ok(out)
}

/// One worktree of the repository: the main one or a linked one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worktree {
    /// `main`, or the linked worktree's name.
    pub name: String,
    pub path: PathBuf,
    /// Why it cannot be used (its directory is gone, say), if it cannot.
    pub problem: Option<String>,
}

/// Every worktree of the repository `repo` belongs to, the main one first
/// (none when the repository is bare), then the linked ones by name.
pub fn all(repo: &Repo) -> Reading<Vec<Worktree>> {
    let mut out = Vec::new();
    let main = git2::Repository::open(repo.common_dir()).map_err(|e| Unread::git("the main worktree", &e))?;
    if let Some(w) = main.workdir() {
        out.push(Worktree {
            name: "main".into(),
            path: w.canonicalize().unwrap_or_else(|_| w.to_path_buf()),
            problem: None,
        });
    }
    let names = repo.git.worktrees().map_err(|e| Unread::git("the linked worktrees", &e))?;
    for name in names.iter().flatten() {
        out.push(match repo.git.find_worktree(name) {
            Ok(wt) => Worktree {
                name: name.to_string(),
                path: wt.path().canonicalize().unwrap_or_else(|_| wt.path().to_path_buf()),
                problem: wt.validate().err().map(|e| format!("the worktree cannot be used: {}", e.message())),
            },
            Err(e) => Worktree {
                name: name.to_string(),
                path: PathBuf::new(),
                problem: Some(format!("the worktree cannot be read: {}", e.message())),
            },
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_linked_worktree_is_read_by_name() {
        let t = TestRepo::with_commit();
        let wt = t
            .path()
            .parent()
            .expect("parent")
            .join(format!("{}-wt", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["worktree", "add", "-q", "-b", "side", wt.to_str().expect("utf8")]);
        let repo = crate::open(t.path()).expect("open");
        let trees = super::read(&repo).expect("read");
        assert_eq!(trees.len(), 1);
        assert!(trees.values().next().expect("one").ends_with("-wt"), "{trees:?}");
        // Read from the linked worktree, the main one is still listed first.
        let linked = crate::open(&wt).expect("open the linked worktree");
        let every = super::all(&linked).expect("all");
        assert_eq!(every.len(), 2);
        assert_eq!(every[0].name, "main");
        assert_eq!(every[0].path, t.path().canonicalize().expect("canonical"));
        assert!(every.iter().all(|w| w.problem.is_none()), "{every:?}");
        std::fs::remove_dir_all(wt).expect("cleanup");
    }
}
