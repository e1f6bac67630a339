//! The paths two trees differ at, reading only the subtrees whose ids
//! differ.
//!
//! libgit2's tree-to-tree diff expands every subtree of both sides, equal
//! or not: on a repository of 100,000 files in 1,100 directories, that is
//! 2,200 trees read to find the one file a task changed, and at any size
//! it is most of what reading "what changed since the start" costs. Two
//! subtrees with the same id hold the same files, so they are skipped
//! whole; only the directories on the way to a change are read.
//!
//! The answer is the set of paths libgit2's diff (without rename
//! detection) gives deltas for, in the same order (git's, which is the
//! full paths' byte order): a blob, link or submodule whose id or mode
//! differs; one only on either side; where a file and a directory swap, the
//! file and every file under the directory. `tests.rs` holds the two to
//! the same answer.

use git2::{ObjectType, Oid, Repository, Tree, TreeEntry};
use majordomus_records::RepoPath;

/// Many paths looked up in one tree, each directory's tree read once.
///
/// `Tree::get_path` reads every tree on the way to a path at each call,
/// and libgit2 keeps no tree larger than 4 KiB in its cache, so a
/// directory of a few thousand files was inflated and parsed again for
/// each of its files: a task committing 4,200 generated files made each
/// reading that asks what a tree holds at every changed path take
/// seconds. Here a directory's tree is read at its first lookup and kept.
pub struct Lookup<'r> {
    git: &'r Repository,
    root: Tree<'r>,
    /// Each directory read, by its path (`None`: no directory there).
    dirs: std::cell::RefCell<std::collections::HashMap<Vec<u8>, Option<Tree<'r>>>>,
}

impl std::fmt::Debug for Lookup<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lookup").field("root", &self.root.id()).finish_non_exhaustive()
    }
}

impl<'r> Lookup<'r> {
    pub fn new(git: &'r Repository, root: Tree<'r>) -> Self {
        Lookup { git, root, dirs: Default::default() }
    }

    /// The id and mode of what the tree holds at `path` (`/` between its
    /// components), as `Tree::get_path` finds it; `None` where it holds
    /// nothing there.
    pub fn entry(&self, path: &[u8]) -> Option<(Oid, i32)> {
        // `dir/` names the directory itself, where it is one (libgit2's
        // `git_tree_entry_bypath`: a nested repository is listed so).
        if let Some(dir) = path.strip_suffix(b"/").filter(|d| !d.is_empty() && !d.ends_with(b"/")) {
            return self.entry(dir).filter(|(_, mode)| *mode == i32::from(git2::FileMode::Tree));
        }
        let (dir, name) = match path.iter().rposition(|&b| b == b'/') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => (&b""[..], path),
        };
        let read = |tree: &Tree<'_>| tree.get_name_bytes(name).map(|e| (e.id(), e.filemode()));
        if dir.is_empty() {
            return read(&self.root);
        }
        self.dir(dir).as_ref().and_then(read)
    }

    /// [`Lookup::entry`] for a path given as a `Path`.
    pub fn entry_at(&self, path: &std::path::Path) -> Option<(Oid, i32)> {
        self.entry(std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()))
    }

    /// The tree at the directory `dir` (not empty), read once.
    fn dir(&self, dir: &[u8]) -> Option<Tree<'r>> {
        if let Some(kept) = self.dirs.borrow().get(dir) {
            return kept.clone();
        }
        let (parent, name) = match dir.iter().rposition(|&b| b == b'/') {
            Some(i) => (self.dir(&dir[..i]), &dir[i + 1..]),
            None => (Some(self.root.clone()), dir),
        };
        let found = parent.and_then(|p| {
            let entry = p.get_name_bytes(name)?;
            (entry.kind() == Some(ObjectType::Tree)).then(|| self.git.find_tree(entry.id()).ok()).flatten()
        });
        self.dirs.borrow_mut().insert(dir.to_vec(), found.clone());
        found
    }
}

/// The paths a commit changed as its own: against its one parent (a root
/// commit, against nothing), and for a merge, those where it differs from
/// every parent: what it took from one side is that side's work, an edit
/// slipped into it is the merge's (test/cases/492). Arrival reads a
/// commit's work so, and `scoped` the work landed around HEAD.
pub fn own_change(
    git: &Repository,
    commit: &git2::Commit<'_>,
) -> Result<std::collections::BTreeSet<RepoPath>, git2::Error> {
    let tree = commit.tree()?;
    if commit.parent_count() == 0 {
        return Ok(changed_paths(git, None, Some(&tree))?.into_iter().collect());
    }
    let mut own: Option<std::collections::BTreeSet<RepoPath>> = None;
    for parent in commit.parents() {
        let paths: std::collections::BTreeSet<RepoPath> =
            changed_paths(git, Some(&parent.tree()?), Some(&tree))?.into_iter().collect();
        own = Some(match own {
            None => paths,
            Some(before) => before.intersection(&paths).cloned().collect(),
        });
    }
    Ok(own.unwrap_or_default())
}

/// The paths (relative to the root, as git stores them) at which `old`
/// and `new` differ; `None` is the empty tree.
pub fn changed_paths(
    git: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
) -> Result<Vec<RepoPath>, git2::Error> {
    let mut out = Vec::new();
    if old.map(Tree::id) != new.map(Tree::id) {
        compare(git, old, new, b"", &mut out)?;
    }
    // Where a file and a directory swap, the file was put before or after
    // the directory's files by the order of its side: git's is the byte
    // order of the full paths.
    out.sort_unstable();
    Ok(out.into_iter().map(RepoPath::from_bytes).collect())
}

fn compare(
    git: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
    prefix: &[u8],
    out: &mut Vec<Vec<u8>>,
) -> Result<(), git2::Error> {
    let olds: Vec<TreeEntry<'_>> = old.map(|t| t.iter().collect()).unwrap_or_default();
    let news: Vec<TreeEntry<'_>> = new.map(|t| t.iter().collect()).unwrap_or_default();
    let (mut i, mut j) = (0, 0);
    while i < olds.len() || j < news.len() {
        let order = match (olds.get(i), news.get(j)) {
            (Some(a), Some(b)) => git_order(a, b),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match order {
            std::cmp::Ordering::Less => {
                one_side(git, &olds[i], prefix, out)?;
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                one_side(git, &news[j], prefix, out)?;
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                both(git, &olds[i], &news[j], prefix, out)?;
                i += 1;
                j += 1;
            }
        }
    }
    Ok(())
}

/// Two entries of the same name and kind (both directories, or neither).
fn both(
    git: &Repository,
    a: &TreeEntry<'_>,
    b: &TreeEntry<'_>,
    prefix: &[u8],
    out: &mut Vec<Vec<u8>>,
) -> Result<(), git2::Error> {
    if a.id() == b.id() && a.filemode() == b.filemode() {
        return Ok(());
    }
    let path = join(prefix, a);
    if is_tree(a) {
        compare(git, Some(&git.find_tree(a.id())?), Some(&git.find_tree(b.id())?), &path, out)
    } else {
        out.push(path);
        Ok(())
    }
}

/// An entry only one side has: itself, or every file under it.
fn one_side(git: &Repository, e: &TreeEntry<'_>, prefix: &[u8], out: &mut Vec<Vec<u8>>) -> Result<(), git2::Error> {
    let path = join(prefix, e);
    if is_tree(e) {
        every_file(git, e.id(), &path, out)
    } else {
        out.push(path);
        Ok(())
    }
}

fn every_file(git: &Repository, tree: Oid, prefix: &[u8], out: &mut Vec<Vec<u8>>) -> Result<(), git2::Error> {
    let tree = git.find_tree(tree)?;
    for e in tree.iter() {
        one_side(git, &e, prefix, out)?;
    }
    Ok(())
}

fn is_tree(e: &TreeEntry<'_>) -> bool {
    e.kind() == Some(ObjectType::Tree)
}

fn join(prefix: &[u8], e: &TreeEntry<'_>) -> Vec<u8> {
    let mut path = Vec::with_capacity(prefix.len() + 1 + e.name_bytes().len());
    if !prefix.is_empty() {
        path.extend_from_slice(prefix);
        path.push(b'/');
    }
    path.extend_from_slice(e.name_bytes());
    path
}

/// The order of a tree's entries: by name, with a `/` after a
/// directory's. A file and a directory of the same name are then two
/// entries, each on its side only: the file, and every file under the
/// directory, as the diff has them.
fn git_order(a: &TreeEntry<'_>, b: &TreeEntry<'_>) -> std::cmp::Ordering {
    key(a).cmp(key(b))
}

fn key<'e>(e: &'e TreeEntry<'_>) -> impl Iterator<Item = u8> + 'e {
    let slash: &'static [u8] = if is_tree(e) { b"/" } else { b"" };
    e.name_bytes().iter().copied().chain(slash.iter().copied())
}

#[cfg(test)]
mod tests;
