//! Linked worktrees: their names and paths.

use std::collections::BTreeMap;

use crate::{Reading, Repo, Unread};

/// Linked worktrees by name, with their paths (the main worktree is not one).
pub fn read(repo: &Repo) -> Reading<BTreeMap<String, String>> {
    let names = repo.git.worktrees().map_err(|e| Unread::git("the linked worktrees", &e))?;
    let mut out = BTreeMap::new();
    for name in names.iter().flatten() {
        let path = repo
            .git
            .find_worktree(name)
            .map(|w| w.path().display().to_string())
            .unwrap_or_default();
        out.insert(name.to_string(), path);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_linked_worktree_is_read_by_name() {
        let t = TestRepo::with_commit();
        let wt = t.path().parent().expect("parent").join(format!("{}-wt", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["worktree", "add", "-q", "-b", "side", wt.to_str().expect("utf8")]);
        let repo = crate::open(t.path()).expect("open");
        let trees = super::read(&repo).expect("read");
        assert_eq!(trees.len(), 1);
        assert!(trees.values().next().expect("one").ends_with("-wt"), "{trees:?}");
        std::fs::remove_dir_all(wt).expect("cleanup");
    }
}
