//! The working tree's baselines, read through the symbolic links that lead
//! inside it.
//!
//! A baseline replaced by a link, or a directory of baselines replaced by
//! one, is still a baseline: skipping links would let `ln -s` empty a
//! baseline's place while its entries, and more, live on at the target. So
//! a link is followed where its target is inside the working tree (not in
//! `.git`), and its entries are named by the link's path, as git names
//! what a link stands for; a link that leads outside the working tree, or
//! nowhere, is refused by name ([`Unread`], kind `repository`) when it is
//! named as a baseline or leads to a directory, never passed over. The start
//! snapshot is taken by this same reader, so both sides of the comparison
//! read a link alike.

use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use majordomus_records::paths::REPO_DIR;

use super::{blob_id, entries, shown, Entry, Found, Link, SUFFIX};
use crate::{Reading, Repo, Unread};

/// How many directories deep a walk goes (through links, a chain can be
/// long without being a loop; a loop is cut where it comes back).
const MAX_DEPTH: usize = 64;

/// The baselines in the working tree now, with those a sparse checkout
/// keeps out of it read from the index (`sparse_file.rs`, test/cases/351).
pub fn read_worktree(repo: &Repo) -> Reading<Found> {
    let mut found = in_worktree(repo)?;
    let held = crate::sparse_file::in_head_under(repo, REPO_DIR, |p| p.ends_with(SUFFIX));
    for (path, content) in crate::sparse_file::skipped(repo, &held)? {
        if !found.baselines.contains_key(&path) {
            found.read_from.insert(path.clone(), (path.clone(), blob_id(&content)));
            found.baselines.insert(path, entries(&content));
        }
    }
    Ok(found)
}

/// The baselines the working tree holds.
fn in_worktree(repo: &Repo) -> Reading<Found> {
    let root = repo.root();
    let mut walk = Walk { root, found: Found::default(), chain: Vec::new() };
    let dir = root.join(REPO_DIR);
    if absent(&dir)? {
        return Ok(walk.found);
    }
    // `.ai` or `.ai/repo` may be links themselves: followed on the terms
    // of any link below.
    let real = std::fs::canonicalize(&dir)
        .map_err(|e| Unread::repository(format!("{REPO_DIR} cannot be resolved ({e}), so no baseline was read")))?;
    if real != dir {
        let Some(target) = inside(root, &real) else {
            return Err(Unread::repository(format!(
                "{REPO_DIR} leads outside the working tree (to {}) through a symbolic link, so its baselines were not read",
                real.display()
            )));
        };
        walk.found.links.push(Link { path: REPO_DIR.to_string(), target });
    }
    if real.is_dir() {
        walk.dir(REPO_DIR, &real)?;
    }
    walk.found.links.sort();
    Ok(walk.found)
}

/// The entries of the working-tree file at `rel` read as a baseline (a
/// file a baseline moved to, whatever its name), a link followed as
/// [`read_worktree`] follows one; `None` when nothing is there or it is a
/// directory.
pub fn read_file(repo: &Repo, rel: &str) -> Reading<Option<Vec<Entry>>> {
    let path = repo.root().join(rel);
    if absent(&path)? || path.is_dir() {
        return Ok(None);
    }
    let mut walk = Walk { root: repo.root(), found: Found::default(), chain: Vec::new() };
    let kind = std::fs::symlink_metadata(&path).map_err(|e| Unread::io(format!("could not read {rel}: {e}")))?;
    if kind.file_type().is_symlink() {
        walk.link(rel, &path, true)?;
    } else {
        walk.file(rel, &path)?;
    }
    Ok(walk.found.baselines.remove(rel))
}

/// Whether nothing is at `path` (or a component of it is no directory).
fn absent(path: &Path) -> Reading<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => Ok(false),
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                || e.raw_os_error() == Some(rustix::io::Errno::NOTDIR.raw_os_error()) =>
        {
            Ok(true)
        }
        Err(e) => Err(Unread::io(format!("could not read {}: {e}", path.display()))),
    }
}

/// The repository-relative path of `target` (canonical), when it lies in
/// the working tree rooted at `root` (canonical) and not in its `.git`.
fn inside(root: &Path, target: &Path) -> Option<String> {
    let rel = target.strip_prefix(root).ok()?;
    if rel.components().next() == Some(Component::Normal(".git".as_ref())) {
        return None;
    }
    rel.to_str().map(str::to_string)
}

struct Walk<'a> {
    root: &'a Path,
    found: Found,
    /// The real directories being read, outermost first: a link back to
    /// one of them is a loop, not read again.
    chain: Vec<PathBuf>,
}

impl Walk<'_> {
    /// Reads the directory at the real (canonical) path `real`, named `rel`.
    fn dir(&mut self, rel: &str, real: &Path) -> Reading<()> {
        if self.chain.iter().any(|c| c == real) {
            return Ok(());
        }
        if self.chain.len() >= MAX_DEPTH {
            return Err(Unread::repository(format!(
                "{rel} lies more than {MAX_DEPTH} directories deep through symbolic links, so the baselines there were not read"
            )));
        }
        let listing = std::fs::read_dir(real).map_err(|e| Unread::io(format!("could not list {rel}: {e}")))?;
        let mut children = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|e| Unread::io(format!("could not list {rel}: {e}")))?;
            let kind = entry.file_type().map_err(|e| Unread::io(format!("could not read {rel}: {e}")))?;
            children.push((entry.file_name(), kind));
        }
        children.sort_by(|a, b| a.0.cmp(&b.0));
        self.chain.push(real.to_path_buf());
        for (name, kind) in children {
            let Some(text) = name.to_str() else {
                let bytes = name.as_bytes();
                if kind.is_dir() || kind.is_symlink() || bytes.ends_with(SUFFIX.as_bytes()) {
                    return Err(Unread::repository(format!(
                        "{rel}/{} has a name that is not UTF-8, so the baselines it may hold were not read",
                        shown(bytes)
                    )));
                }
                continue;
            };
            if text == ".git" {
                continue;
            }
            let child = format!("{rel}/{text}");
            let path = real.join(&name);
            if kind.is_symlink() {
                self.link(&child, &path, false)?;
            } else if kind.is_dir() {
                self.dir(&child, &path)?;
            } else if text.ends_with(SUFFIX) {
                self.file(&child, &path)?;
            }
        }
        self.chain.pop();
        Ok(())
    }

    /// Follows the link at `path`, named `rel`: a directory it leads to is
    /// read as if it were there, a file as a baseline when the link is named
    /// as one (or `as_baseline`).
    fn link(&mut self, rel: &str, path: &Path, as_baseline: bool) -> Reading<()> {
        let named = as_baseline || rel.ends_with(SUFFIX);
        let target = match std::fs::canonicalize(path) {
            Ok(t) => t,
            // A link that leads nowhere (or round a loop) holds no
            // baseline, but where one is named it hides one.
            Err(e) if named => {
                let to = std::fs::read_link(path).map(|t| t.display().to_string()).unwrap_or_default();
                return Err(Unread::repository(format!(
                    "the baseline {rel} is a symbolic link to {to} that leads nowhere ({e}), so it was not read"
                )));
            }
            Err(_) => return Ok(()),
        };
        let is_dir = target.is_dir();
        if !named && !is_dir {
            return Ok(());
        }
        let Some(to) = inside(self.root, &target) else {
            let what = if is_dir { "a directory" } else { "a file" };
            return Err(Unread::repository(format!(
                "{rel} is a symbolic link to {what} outside the working tree ({}), so the baselines there were not read",
                target.display()
            )));
        };
        self.found.links.push(Link { path: rel.to_string(), target: to });
        if is_dir {
            self.dir(rel, &target)
        } else {
            self.file(rel, &target)
        }
    }

    fn file(&mut self, rel: &str, path: &Path) -> Reading<()> {
        // Named as a baseline but a FIFO, a socket or a device: not read
        // (a FIFO would wait for a writer), and the reading says why
        // rather than pass over a baseline it could not see.
        let content = crate::file::read(path).map_err(|e| match e {
            crate::file::FileError::NotRegular { kind, .. } => {
                Unread::repository(format!("the baseline {rel} is {kind}, not a regular file, and was not read"))
            }
            e => Unread::io(e.to_string()),
        })?;
        let real = inside(self.root, path).unwrap_or_else(|| rel.to_string());
        self.found.read_from.insert(rel.to_string(), (real, blob_id(&content)));
        self.found.baselines.insert(rel.to_string(), entries(&content));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use majordomus_testkit::TestRepo;

    use super::*;

    fn link(t: &TestRepo, target: &str, at: &str) {
        symlink(target, t.path().join(at)).expect("symlink");
    }

    #[test]
    fn a_baseline_that_is_a_link_inside_the_tree_is_read_through_it_under_its_own_name() {
        let t = TestRepo::with_commit();
        t.write(".ai/repo/lint-list.txt", "a\nb\n");
        link(&t, "lint-list.txt", ".ai/repo/lint-baseline.txt");
        link(&t, "lint-list.txt", ".ai/repo/notes.txt");
        let repo = crate::open(t.path()).expect("open");
        let found = read_worktree(&repo).expect("read");
        assert_eq!(found.baselines.keys().collect::<Vec<_>>(), [".ai/repo/lint-baseline.txt"]);
        assert_eq!(found.baselines[".ai/repo/lint-baseline.txt"], [b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(
            found.links,
            [Link { path: ".ai/repo/lint-baseline.txt".into(), target: ".ai/repo/lint-list.txt".into() }]
        );
        assert_eq!(read_file(&repo, ".ai/repo/notes.txt").expect("read"), Some(vec![b"a".to_vec(), b"b".to_vec()]));
        assert_eq!(read_file(&repo, "nowhere.txt").expect("read"), None);
    }

    #[test]
    fn a_directory_of_baselines_that_is_a_link_is_read_as_if_it_were_there_and_a_loop_once() {
        let t = TestRepo::with_commit();
        t.write("elsewhere/lint-baseline.txt", "a\nc\n");
        std::fs::create_dir_all(t.path().join(".ai/repo")).expect("mkdir");
        link(&t, "../../elsewhere", ".ai/repo/debt");
        link(&t, ".", ".ai/repo/again");
        let repo = crate::open(t.path()).expect("open");
        let found = read_worktree(&repo).expect("read");
        assert_eq!(found.baselines.keys().collect::<Vec<_>>(), [".ai/repo/debt/lint-baseline.txt"]);
        assert_eq!(found.links.iter().map(|l| l.target.as_str()).collect::<Vec<_>>(), [".ai/repo", "elsewhere"]);
    }

    #[test]
    fn a_link_outside_the_working_tree_or_nowhere_is_refused_by_name() {
        let t = TestRepo::with_commit();
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("list.txt"), "a\n").expect("write");
        std::fs::create_dir_all(t.path().join(".ai/repo")).expect("mkdir");
        let repo = crate::open(t.path()).expect("open");
        symlink(outside.path().join("list.txt"), t.path().join(".ai/repo/lint-baseline.txt")).expect("symlink");
        let e = read_worktree(&repo).expect_err("outside");
        assert!(
            e.reason.contains(".ai/repo/lint-baseline.txt is a symbolic link to a file outside the working tree"),
            "{e}"
        );
        t.remove(".ai/repo/lint-baseline.txt");
        symlink(outside.path(), t.path().join(".ai/repo/debt")).expect("symlink");
        let e = read_worktree(&repo).expect_err("outside");
        assert!(e.reason.contains(".ai/repo/debt is a symbolic link to a directory outside"), "{e}");
        t.remove(".ai/repo/debt");
        link(&t, "gone.txt", ".ai/repo/lint-baseline.txt");
        let e = read_worktree(&repo).expect_err("nowhere");
        assert!(
            e.reason
                .contains("the baseline .ai/repo/lint-baseline.txt is a symbolic link to gone.txt that leads nowhere"),
            "{e}"
        );
        t.remove(".ai/repo/lint-baseline.txt");
        link(&t, "../../.git/config", ".ai/repo/git-baseline.txt");
        assert!(read_worktree(&repo).is_err(), "a link into .git is not into the working tree");
        t.remove(".ai/repo/git-baseline.txt");
        link(&t, "gone.txt", ".ai/repo/notes.txt");
        assert_eq!(read_worktree(&repo).expect("a dangling link named as no baseline"), Found::default());
    }

    #[test]
    fn a_commit_holding_a_baseline_link_is_refused_not_read_as_its_text() {
        let t = TestRepo::with_commit();
        t.write(".ai/repo/lint-list.txt", "a\n");
        link(&t, "lint-list.txt", ".ai/repo/lint-baseline.txt");
        let commit = t.commit_all("a linked baseline");
        let repo = crate::open(t.path()).expect("open");
        let e = crate::baselines::read_commit(&repo, &commit).expect_err("a link");
        assert!(e.reason.contains("the start commit's .ai/repo/lint-baseline.txt is a symbolic link"), "{e}");
        t.remove(".ai/repo/lint-baseline.txt");
        t.write("elsewhere/x-baseline.txt", "b\n");
        link(&t, "../../elsewhere", ".ai/repo/debt");
        let commit = t.commit_all("a linked directory");
        let e = crate::baselines::read_commit(&repo, &commit).expect_err("a link");
        assert!(e.reason.contains(".ai/repo/debt is a symbolic link"), "{e}");
    }
}
