//! A sparse index (`sdir` extension) holds, for each directory outside a
//! sparse checkout's cone, one entry naming the directory's tree
//! (`git help index-format`, "Sparse Directory Entries"). It is expanded
//! here into the entries the tree holds, flagged skip-worktree, as git
//! expands it when it needs every path.

use git2::{ObjectType, Repository};

use super::parse::{Entry, Paths, Unsupported};

/// `entries` (their paths in `paths`) with each sparse directory entry
/// replaced by its tree's entries, and their paths.
pub(super) fn expand(repo: &Repository, entries: Vec<Entry>, paths: Paths) -> Result<(Vec<Entry>, Paths), Unsupported> {
    const DIR: u32 = 0o040000;
    if !entries.iter().any(|e| e.mode & 0o170000 == DIR) {
        return Ok((entries, paths));
    }
    let mut out = (Vec::with_capacity(entries.len()), Paths::default());
    for mut e in entries {
        let path = e.path(&paths);
        if e.mode & 0o170000 != DIR {
            e.at = out.1.push(path)?;
            out.0.push(e);
            continue;
        }
        let tree = repo.find_tree(e.id).map_err(|err| {
            Unsupported(format!("the sparse index's tree for {}: {}", String::from_utf8_lossy(path), err.message()))
        })?;
        let mut prefix = path.to_vec();
        if prefix.last() != Some(&b'/') {
            prefix.push(b'/');
        }
        push_tree(repo, &tree, &mut prefix, &mut out)?;
    }
    Ok(out)
}

/// Every blob and gitlink of `tree`, in index order, under `prefix`.
fn push_tree(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    prefix: &mut Vec<u8>,
    out: &mut (Vec<Entry>, Paths),
) -> Result<(), Unsupported> {
    let keep = prefix.len();
    for item in tree.iter() {
        prefix.truncate(keep);
        prefix.extend_from_slice(item.name_bytes());
        if item.kind() == Some(ObjectType::Tree) {
            let sub = repo
                .find_tree(item.id())
                .map_err(|e| Unsupported(format!("a sparse index's tree: {}", e.message())))?;
            prefix.push(b'/');
            push_tree(repo, &sub, prefix, out)?;
        } else {
            out.0.push(Entry {
                at: out.1.push(prefix)?,
                ctime: (0, 0),
                mtime: (0, 0),
                ino: 0,
                mode: item.filemode() as u32,
                size: 0,
                id: item.id(),
                stage: 0,
                skip_worktree: true,
                intent_to_add: false,
                assume_valid: false,
            });
        }
    }
    prefix.truncate(keep);
    Ok(())
}
