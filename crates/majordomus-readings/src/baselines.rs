//! Debt baselines: every `*-baseline.txt` under `.ai/repo/`, at any depth,
//! found by suffix. An entry is a trimmed line that is neither blank nor a
//! `#` comment.

use std::collections::BTreeMap;
use std::path::Path;

use majordomus_records::paths::REPO_DIR;

use crate::{Reading, Repo, Unread};

/// The suffix that makes a file a debt baseline.
pub const SUFFIX: &str = "-baseline.txt";

/// Baselines by repository-relative path, each with its entries in order.
pub type Baselines = BTreeMap<String, Vec<String>>;

/// The entries of one baseline's text.
pub fn entries(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The baselines in the working tree now.
pub fn read_worktree(repo: &Repo) -> Reading<Baselines> {
    let mut out = Baselines::new();
    let dir = repo.root().join(REPO_DIR);
    if !dir.is_dir() {
        return Ok(out);
    }
    walk(repo.root(), &dir, &mut out)?;
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Baselines) -> Reading<()> {
    let listing = std::fs::read_dir(dir).map_err(|e| Unread::new(format!("could not list {}: {e}", dir.display())))?;
    for entry in listing {
        let entry = entry.map_err(|e| Unread::new(format!("could not list {}: {e}", dir.display())))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| Unread::new(format!("could not read {}: {e}", path.display())))?;
        if kind.is_dir() {
            walk(root, &path, out)?;
        } else if kind.is_file() && entry.file_name().to_string_lossy().ends_with(SUFFIX) {
            let text = std::fs::read(&path).map_err(|e| Unread::new(format!("could not read {}: {e}", path.display())))?;
            let rel = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            out.insert(rel, entries(&String::from_utf8_lossy(&text)));
        }
    }
    Ok(())
}

/// The baselines in a commit's tree, all read in one walk of that tree.
pub fn read_commit(repo: &Repo, commit: &str) -> Reading<Baselines> {
    let oid = git2::Oid::from_str(commit).map_err(|e| Unread::git(&format!("commit id {commit}"), &e))?;
    let commit_obj = repo
        .git
        .find_commit(oid)
        .map_err(|_| Unread::new(format!("the start commit {commit} is not in this repository")))?;
    let tree = commit_obj.tree().map_err(|e| Unread::git("the start commit's tree", &e))?;
    let mut out = Baselines::new();
    let sub = match tree.get_path(Path::new(REPO_DIR)) {
        Ok(entry) => entry.to_object(&repo.git).map_err(|e| Unread::git(REPO_DIR, &e))?,
        Err(_) => return Ok(out),
    };
    let Some(sub) = sub.as_tree() else { return Ok(out) };
    let mut failed = None;
    sub.walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
        let name = entry.name().unwrap_or("");
        if entry.kind() == Some(git2::ObjectType::Blob) && name.ends_with(SUFFIX) {
            match repo.git.find_blob(entry.id()) {
                Ok(blob) => {
                    out.insert(format!("{REPO_DIR}/{parent}{name}"), entries(&String::from_utf8_lossy(blob.content())));
                }
                Err(e) => {
                    failed = Some(Unread::git(&format!("{parent}{name}"), &e));
                    return git2::TreeWalkResult::Abort;
                }
            }
        }
        git2::TreeWalkResult::Ok
    })
    .ok();
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn blank_lines_and_comments_are_not_entries() {
        assert_eq!(entries("# header\n\n  a  \n#b\nc\n   \n"), ["a", "c"]);
    }

    #[test]
    fn baselines_are_found_by_suffix_at_any_depth_in_the_tree_and_the_commit() {
        let t = TestRepo::with_commit();
        t.write(".ai/repo/clippy-baseline.txt", "one\ntwo\n");
        t.write(".ai/repo/deep/er/todo-baseline.txt", "# c\nthree\n");
        t.write(".ai/repo/not-a-baseline.md", "x\n");
        let commit = t.commit_all("baselines");
        let repo = crate::open(t.path()).expect("open");
        let now = read_worktree(&repo).expect("worktree");
        assert_eq!(now.keys().collect::<Vec<_>>(), [".ai/repo/clippy-baseline.txt", ".ai/repo/deep/er/todo-baseline.txt"]);
        assert_eq!(now[".ai/repo/deep/er/todo-baseline.txt"], ["three"]);
        assert_eq!(read_commit(&repo, &commit).expect("commit"), now);
    }
}
