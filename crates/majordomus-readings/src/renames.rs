//! Git's rename detection: which path a file that is gone now lives at.
//!
//! Between two trees, or between a commit's tree and the working tree as it
//! is now (staged or not, tracked or not), limited to one directory. Git
//! pairs a deleted path with an added one whose content is at least half the
//! same; it cannot pair what it does not see as similar (an empty file, a
//! file rewritten in the same move), and says nothing then.

use git2::{Delta, Diff, DiffFindOptions, DiffOptions, Oid};

use crate::{Reading, Repo, Unread};

/// A path at the start that lives at another path now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    pub from: String,
    pub to: String,
}

/// Renames under `dir` from the tree of `commit` to the working tree now
/// (the index and the files on disk, untracked ones included).
pub fn commit_to_worktree(repo: &Repo, commit: &str, dir: &str) -> Reading<Vec<Rename>> {
    let tree = tree_of(repo, commit)?;
    let mut opts = options(dir);
    opts.include_untracked(true).recurse_untracked_dirs(true);
    let diff = repo
        .git
        .diff_tree_to_workdir_with_index(Some(&tree), Some(&mut opts))
        .map_err(|e| Unread::git(&format!("{dir} since {commit}"), &e))?;
    renames(diff, dir)
}

/// Renames from the tree of `commit` to the working tree now among exactly
/// the paths `among` (repository-relative): only these are compared, so
/// the cost is theirs, not the working tree's.
pub fn commit_to_worktree_among(repo: &Repo, commit: &str, among: &[String]) -> Reading<Vec<Rename>> {
    let tree = tree_of(repo, commit)?;
    let mut opts = DiffOptions::new();
    for path in among {
        opts.pathspec(path);
    }
    opts.disable_pathspec_match(true).include_typechange(false).include_untracked(true).recurse_untracked_dirs(true);
    let diff = repo
        .git
        .diff_tree_to_workdir_with_index(Some(&tree), Some(&mut opts))
        .map_err(|e| Unread::git(&format!("the paths gone and added since {commit}"), &e))?;
    renames(diff, "the paths gone and added")
}

/// Renames under `dir` from the tree of commit `old` to that of commit `new`.
pub fn between_commits(repo: &Repo, old: &str, new: &str, dir: &str) -> Reading<Vec<Rename>> {
    let (a, b) = (tree_of(repo, old)?, tree_of(repo, new)?);
    let diff = repo
        .git
        .diff_tree_to_tree(Some(&a), Some(&b), Some(&mut options(dir)))
        .map_err(|e| Unread::git(&format!("{dir} between {old} and {new}"), &e))?;
    renames(diff, dir)
}

fn tree_of<'r>(repo: &'r Repo, commit: &str) -> Reading<git2::Tree<'r>> {
    let oid = Oid::from_str(commit).map_err(|e| Unread::git(&format!("commit id {commit}"), &e))?;
    let found = repo.git.find_commit(oid).map_err(|_| Unread::start_commit_missing(commit))?;
    found.tree().map_err(|e| Unread::git(&format!("the tree of {commit}"), &e))
}

fn options(dir: &str) -> DiffOptions {
    let mut opts = DiffOptions::new();
    opts.pathspec(dir).disable_pathspec_match(false).include_typechange(false);
    opts
}

fn renames(mut diff: Diff<'_>, dir: &str) -> Reading<Vec<Rename>> {
    let mut find = DiffFindOptions::new();
    find.renames(true).for_untracked(true);
    diff.find_similar(Some(&mut find)).map_err(|e| Unread::git(&format!("renames under {dir}"), &e))?;
    Ok(diff
        .deltas()
        .filter(|d| d.status() == Delta::Renamed)
        .filter_map(|d| {
            let from = d.old_file().path()?.to_str()?.to_string();
            let to = d.new_file().path()?.to_str()?.to_string();
            Some(Rename { from, to })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    const ENTRIES: &str = "src/a.rs: allow(dead_code)\nsrc/b.rs: allow(unused)\nsrc/c.rs: unwrap\nsrc/d.rs: expect\n";

    #[test]
    fn a_file_moved_with_an_added_line_is_found_committed_staged_or_untracked() {
        let t = TestRepo::with_commit();
        t.write(".ai/repo/lint-baseline.txt", ENTRIES);
        let start = t.commit_all("baseline");
        let repo = crate::open(t.path()).expect("open");
        assert!(commit_to_worktree(&repo, &start, ".ai/repo").expect("read").is_empty());

        t.remove(".ai/repo/lint-baseline.txt");
        t.write(".ai/repo/moved/clippy-baseline.txt", &format!("{ENTRIES}src/e.rs: added\n"));
        let want =
            vec![Rename { from: ".ai/repo/lint-baseline.txt".into(), to: ".ai/repo/moved/clippy-baseline.txt".into() }];
        assert_eq!(commit_to_worktree(&repo, &start, ".ai/repo").expect("untracked"), want);
        t.git(&["add", "-A"]);
        assert_eq!(commit_to_worktree(&repo, &start, ".ai/repo").expect("staged"), want);
        let now = t.commit_all("move");
        assert_eq!(commit_to_worktree(&repo, &start, ".ai/repo").expect("committed"), want);
        assert_eq!(between_commits(&repo, &start, &now, ".ai/repo").expect("trees"), want);
    }

    #[test]
    fn a_rename_out_of_the_directory_is_found_among_the_paths_named() {
        let t = TestRepo::with_commit();
        t.write(".ai/repo/lint-baseline.txt", ENTRIES);
        t.write("src/other.txt", ENTRIES);
        let start = t.commit_all("baseline");
        let repo = crate::open(t.path()).expect("open");
        t.remove(".ai/repo/lint-baseline.txt");
        t.write("config/lint-allow.txt", &format!("{ENTRIES}src/e.rs: added\n"));
        let among = |paths: &[&str]| {
            let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
            commit_to_worktree_among(&repo, &start, &paths).expect("read")
        };
        let want = vec![Rename { from: ".ai/repo/lint-baseline.txt".into(), to: "config/lint-allow.txt".into() }];
        assert_eq!(among(&[".ai/repo/lint-baseline.txt", "config/lint-allow.txt"]), want, "untracked");
        assert!(commit_to_worktree(&repo, &start, ".ai/repo").expect("read").is_empty(), "out of the directory");
        t.commit_all("moved out");
        assert_eq!(among(&[".ai/repo/lint-baseline.txt", "config/lint-allow.txt"]), want, "committed");
        assert!(among(&[".ai/repo/lint-baseline.txt"]).is_empty(), "only the paths named are compared");
    }

    #[test]
    fn a_rename_outside_the_directory_is_not_reported() {
        let t = TestRepo::with_commit();
        let start = t.head();
        t.git(&["mv", "README", "README.md"]);
        let repo = crate::open(t.path()).expect("open");
        assert!(commit_to_worktree(&repo, &start, ".ai/repo").expect("read").is_empty());
    }
}
