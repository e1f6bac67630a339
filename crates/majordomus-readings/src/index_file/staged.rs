//! The index against HEAD's tree, with the cache tree's help: a subtree
//! whose cached id is HEAD's is not walked.

use std::collections::HashSet;

use git2::{ObjectType, Repository};
use majordomus_records::RepoPath;

use super::parse::{CacheTree, Entry, Paths};

/// The entries against HEAD's tree (`None`: unborn): the paths that
/// differ, and those of them that are not in the index at all.
pub(super) fn staged(
    repo: &Repository,
    head: Option<&git2::Tree<'_>>,
    entries: &[Entry],
    paths: &Paths,
    cache: Option<&CacheTree>,
) -> Result<(Vec<RepoPath>, HashSet<RepoPath>), git2::Error> {
    let mut out = Staged::default();
    compare_dir(repo, head, b"", (entries, paths), cache, &mut out)?;
    Ok((out.differ, out.removed))
}

#[derive(Default)]
struct Staged {
    differ: Vec<RepoPath>,
    removed: HashSet<RepoPath>,
}

fn join(prefix: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = prefix.to_vec();
    p.extend_from_slice(name);
    p
}

fn compare_dir(
    repo: &Repository,
    tree: Option<&git2::Tree<'_>>,
    prefix: &[u8],
    (entries, paths): (&[Entry], &Paths),
    cache: Option<&CacheTree>,
    out: &mut Staged,
) -> Result<(), git2::Error> {
    if let (Some(t), Some(CacheTree { id: Some(id), .. })) = (tree, cache) {
        if t.id() == *id {
            return Ok(());
        }
    }
    // The index entries directly here, and those under each subdirectory.
    let mut seen_names: HashSet<&[u8]> = HashSet::new();
    let mut i = 0;
    while i < entries.len() {
        let rest = &entries[i].path(paths)[prefix.len()..];
        match rest.iter().position(|c| *c == b'/') {
            None => {
                let path = entries[i].path(paths);
                seen_names.insert(rest);
                // Conflicted paths are present; they are not compared here.
                let mut j = i;
                while j < entries.len() && entries[j].path(paths) == path {
                    j += 1;
                }
                let resolved = entries[i..j].iter().find(|x| x.stage == 0);
                if let Some(e) = resolved {
                    let theirs =
                        tree.and_then(|t| t.get_name_bytes(rest)).filter(|x| x.kind() != Some(ObjectType::Tree));
                    let same = theirs.is_some_and(|t| t.id() == e.id && t.filemode() as u32 == e.mode);
                    if !same {
                        out.differ.push(RepoPath::from_bytes(path.to_vec()));
                    }
                    if let Some(t) =
                        tree.and_then(|t| t.get_name_bytes(rest)).filter(|x| x.kind() == Some(ObjectType::Tree))
                    {
                        removed(repo, join(prefix, rest), &t, out)?;
                    }
                }
                i = j;
            }
            Some(slash) => {
                let name = &rest[..slash];
                let sub_prefix = join(&join(prefix, name), b"/");
                let mut j = i;
                while j < entries.len() && entries[j].path(paths).starts_with(&sub_prefix) {
                    j += 1;
                }
                seen_names.insert(name);
                let sub = tree.and_then(|t| t.get_name_bytes(name));
                let sub_tree = match &sub {
                    Some(s) if s.kind() == Some(ObjectType::Tree) => Some(s.to_object(repo)?.peel_to_tree()?),
                    Some(s) => {
                        // A file in HEAD became a directory in the index.
                        let path = join(prefix, name);
                        if !entries.iter().any(|e| e.path(paths) == path) {
                            let p = RepoPath::from_bytes(path);
                            out.removed.insert(p.clone());
                            out.differ.push(p);
                        }
                        let _ = s;
                        None
                    }
                    None => None,
                };
                let child = cache.and_then(|c| c.children.iter().find(|c| c.name == name));
                compare_dir(repo, sub_tree.as_ref(), &sub_prefix, (&entries[i..j], paths), child, out)?;
                i = j;
            }
        }
    }
    // What HEAD holds here that the index does not.
    if let Some(t) = tree {
        for item in t.iter() {
            let name = item.name_bytes();
            if seen_names.contains(name) {
                continue;
            }
            removed(repo, join(prefix, name), &item, out)?;
        }
    }
    Ok(())
}

/// A file of HEAD gone from the index, or every file of a subtree that is.
fn removed(repo: &Repository, path: Vec<u8>, item: &git2::TreeEntry<'_>, out: &mut Staged) -> Result<(), git2::Error> {
    if item.kind() == Some(ObjectType::Tree) {
        let tree = item.to_object(repo)?.peel_to_tree()?;
        let prefix = join(&path, b"/");
        for child in tree.iter() {
            removed(repo, join(&prefix, child.name_bytes()), &child, out)?;
        }
    } else {
        let p = RepoPath::from_bytes(path);
        out.removed.insert(p.clone());
        out.differ.push(p);
    }
    Ok(())
}
