//! The index file read directly, as git reads it: entries and the cache
//! tree, without verifying the trailing checksum (git does not either,
//! outside `fsck`), and the index compared with HEAD's tree with the cache
//! tree's help, so that a subtree the cache tree vouches for is not walked.
//!
//! libgit2 verifies the checksum on every read (a SHA-1 over the whole file,
//! a fifth of `check`'s time on a 100,000-file repository) and walks every
//! tree of HEAD to diff it with the index. An index this reader does not
//! understand (a version or a required extension it does not know, a SHA-256
//! repository) is [`Unsupported`], and the caller reads it through libgit2.

use std::collections::HashSet;
use std::path::Path;

use git2::{ObjectType, Oid, Repository};

/// One stage of one path in the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: Vec<u8>,
    pub ctime: (u32, u32),
    pub mtime: (u32, u32),
    pub ino: u32,
    pub mode: u32,
    pub size: u32,
    pub id: Oid,
    /// 0 for a resolved path, 1–3 for the sides of a conflict.
    pub stage: u8,
    pub skip_worktree: bool,
    pub intent_to_add: bool,
}

/// A node of the cache tree: a directory, and, when valid, the tree id its
/// entries would write.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CacheTree {
    name: Vec<u8>,
    id: Option<Oid>,
    children: Vec<CacheTree>,
}

#[derive(Debug)]
pub struct Index {
    pub entries: Vec<Entry>,
    cache: Option<CacheTree>,
}

/// An index this reader does not read; libgit2 does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

fn be32(b: &[u8], at: usize) -> Result<u32, Unsupported> {
    b.get(at..at + 4)
        .map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| Unsupported("the index ends early".into()))
}

impl Index {
    pub fn read(path: &Path) -> Result<Self, Unsupported> {
        let bytes = std::fs::read(path).map_err(|e| Unsupported(format!("cannot read the index: {e}")))?;
        Self::parse(&bytes)
    }

    pub fn parse(b: &[u8]) -> Result<Self, Unsupported> {
        if b.get(..4) != Some(b"DIRC") {
            return Err(Unsupported("not an index file".into()));
        }
        let version = be32(b, 4)?;
        if !(2..=4).contains(&version) {
            return Err(Unsupported(format!("index version {version}")));
        }
        let count = be32(b, 8)? as usize;
        let body_end = b.len().checked_sub(20).ok_or_else(|| Unsupported("the index ends early".into()))?;
        let mut at = 12;
        // An entry takes at least 62 bytes: a corrupted count reserves no more than the file can hold.
        let mut entries = Vec::with_capacity(count.min(b.len() / 62));
        let mut previous: Vec<u8> = Vec::new();
        for _ in 0..count {
            let start = at;
            if start + 62 > body_end {
                return Err(Unsupported("the index ends early".into()));
            }
            let f = |i: usize| be32(b, start + 4 * i);
            let id = Oid::from_bytes(
                b.get(start + 40..start + 60).ok_or_else(|| Unsupported("the index ends early".into()))?,
            )
            .map_err(|e| Unsupported(e.message().to_string()))?;
            let flags = u16::from_be_bytes([b[start + 60], b[start + 61]]);
            at = start + 62;
            let mut extended = 0u16;
            if flags & 0x4000 != 0 {
                if version < 3 {
                    return Err(Unsupported("an extended entry in a version 2 index".into()));
                }
                let e = b.get(at..at + 2).ok_or_else(|| Unsupported("the index ends early".into()))?;
                extended = u16::from_be_bytes([e[0], e[1]]);
                at += 2;
            }
            let path = if version == 4 {
                let (strip, used) = varint(&b[at..]).ok_or_else(|| Unsupported("a bad path prefix".into()))?;
                at += used;
                let nul =
                    b[at..].iter().position(|c| *c == 0).ok_or_else(|| Unsupported("an unterminated path".into()))?;
                let keep = previous.len().checked_sub(strip).ok_or_else(|| Unsupported("a bad path prefix".into()))?;
                let mut p = Vec::with_capacity(keep + nul);
                p.extend_from_slice(&previous[..keep]);
                p.extend_from_slice(&b[at..at + nul]);
                at += nul + 1;
                // Version 4 paths are stored as a change to the one before.
                previous.clear();
                previous.extend_from_slice(&p);
                p
            } else {
                let nul =
                    b[at..].iter().position(|c| *c == 0).ok_or_else(|| Unsupported("an unterminated path".into()))?;
                let p = b[at..at + nul].to_vec();
                // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
                at = start + ((at - start + nul + 8) & !7);
                p
            };
            if at > body_end {
                return Err(Unsupported("the index ends early".into()));
            }
            // Readers of `entries` search it by path: git keeps it sorted, and
            // an index that is not is one this reader does not read.
            if entries.last().is_some_and(|last: &Entry| last.path > path) {
                return Err(Unsupported("the index's entries are out of order".into()));
            }
            entries.push(Entry {
                ctime: (f(0)?, f(1)?),
                mtime: (f(2)?, f(3)?),
                ino: f(5)?,
                mode: f(6)?,
                size: f(9)?,
                id,
                stage: ((flags >> 12) & 0x3) as u8,
                skip_worktree: extended & 0x4000 != 0,
                intent_to_add: extended & 0x2000 != 0,
                path,
            });
        }
        let mut cache = None;
        while at + 8 <= body_end {
            let sig = &b[at..at + 4];
            let size = be32(b, at + 4)? as usize;
            let data = b.get(at + 8..at + 8 + size).ok_or_else(|| Unsupported("an extension ends early".into()))?;
            if sig == b"TREE" {
                let mut pos = 0;
                cache = Some(cache_tree(data, &mut pos)?);
            } else if !sig[0].is_ascii_uppercase() {
                return Err(Unsupported(format!("the required index extension {:?}", String::from_utf8_lossy(sig))));
            }
            at += 8 + size;
        }
        Ok(Index { entries, cache })
    }
}

/// Git's offset varint (the one of pack files' ofs-delta and index v4).
fn varint(b: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    let mut c = *b.first()?;
    let mut value = usize::from(c & 0x7f);
    while c & 0x80 != 0 {
        i += 1;
        c = *b.get(i)?;
        value = ((value + 1) << 7) | usize::from(c & 0x7f);
    }
    Some((value, i + 1))
}

fn cache_tree(b: &[u8], pos: &mut usize) -> Result<CacheTree, Unsupported> {
    let bad = || Unsupported("a malformed cache tree".into());
    let nul = b[*pos..].iter().position(|c| *c == 0).ok_or_else(bad)?;
    let name = b[*pos..*pos + nul].to_vec();
    *pos += nul + 1;
    let nl = b[*pos..].iter().position(|c| *c == b'\n').ok_or_else(bad)?;
    let line = std::str::from_utf8(&b[*pos..*pos + nl]).map_err(|_| bad())?;
    *pos += nl + 1;
    let (count, subtrees) = line.split_once(' ').ok_or_else(bad)?;
    let count: i64 = count.parse().map_err(|_| bad())?;
    let subtrees: usize = subtrees.parse().map_err(|_| bad())?;
    let id = if count >= 0 {
        let raw = b.get(*pos..*pos + 20).ok_or_else(bad)?;
        *pos += 20;
        Some(Oid::from_bytes(raw).map_err(|_| bad())?)
    } else {
        None
    };
    let children = (0..subtrees).map(|_| cache_tree(b, pos)).collect::<Result<_, _>>()?;
    Ok(CacheTree { name, id, children })
}

/// The index against HEAD's tree (`None`: unborn): the paths that differ,
/// and those of them that are not in the index at all.
pub fn staged(
    repo: &Repository,
    head: Option<&git2::Tree<'_>>,
    index: &Index,
) -> Result<(Vec<String>, HashSet<String>), git2::Error> {
    let mut out = Staged::default();
    let present: Vec<&Entry> = index.entries.iter().collect();
    compare_dir(repo, head, b"", &present, index.cache.as_ref(), &mut out)?;
    Ok((out.differ, out.removed))
}

#[derive(Default)]
struct Staged {
    differ: Vec<String>,
    removed: HashSet<String>,
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
    entries: &[&Entry],
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
        let rest = &entries[i].path[prefix.len()..];
        match rest.iter().position(|c| *c == b'/') {
            None => {
                let e = entries[i];
                seen_names.insert(rest);
                // Conflicted paths are present; they are not compared here.
                let mut j = i;
                while j < entries.len() && entries[j].path == e.path {
                    j += 1;
                }
                let resolved = entries[i..j].iter().find(|x| x.stage == 0);
                if let Some(e) = resolved {
                    let theirs =
                        tree.and_then(|t| t.get_name_bytes(rest)).filter(|x| x.kind() != Some(ObjectType::Tree));
                    let same = theirs.is_some_and(|t| t.id() == e.id && t.filemode() as u32 == e.mode);
                    if !same {
                        out.differ.push(String::from_utf8_lossy(&e.path).into_owned());
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
                while j < entries.len() && entries[j].path.starts_with(&sub_prefix) {
                    j += 1;
                }
                seen_names.insert(name);
                let sub = tree.and_then(|t| t.get_name_bytes(name));
                let sub_tree = match &sub {
                    Some(s) if s.kind() == Some(ObjectType::Tree) => Some(s.to_object(repo)?.peel_to_tree()?),
                    Some(s) => {
                        // A file in HEAD became a directory in the index.
                        let path = join(prefix, name);
                        let p = String::from_utf8_lossy(&path).into_owned();
                        if !entries.iter().any(|e| e.path == path) {
                            out.removed.insert(p.clone());
                            out.differ.push(p);
                        }
                        let _ = s;
                        None
                    }
                    None => None,
                };
                let child = cache.and_then(|c| c.children.iter().find(|c| c.name == name));
                compare_dir(repo, sub_tree.as_ref(), &sub_prefix, &entries[i..j], child, out)?;
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
        let p = String::from_utf8_lossy(&path).into_owned();
        out.removed.insert(p.clone());
        out.differ.push(p);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    /// Path, id, mode and stage of each entry.
    type Listing = Vec<(Vec<u8>, Oid, u32, u8)>;

    fn ours_and_libgit2(t: &TestRepo) -> (Listing, Listing) {
        let repo = t.open();
        let ours = Index::read(&t.path().join(".git/index")).expect("parse");
        let theirs = repo.index().expect("index");
        (
            ours.entries.iter().map(|e| (e.path.clone(), e.id, e.mode, e.stage)).collect(),
            theirs.iter().map(|e| (e.path.clone(), e.id, e.mode, ((e.flags >> 12) & 3) as u8)).collect(),
        )
    }

    fn fill(t: &TestRepo) {
        for i in 0..30 {
            t.write(&format!("dir{}/sub/file-{i}.txt", i % 3), &format!("{i}\n"));
        }
        t.write("top.txt", "top\n");
        t.commit_all("files");
    }

    #[test]
    fn every_index_version_reads_as_libgit2_reads_it() {
        for version in ["2", "3", "4"] {
            let t = TestRepo::with_commit();
            fill(&t);
            t.git(&["update-index", "--index-version", version]);
            t.write("new.txt", "n\n");
            t.git(&["add", "-N", "new.txt"]);
            let (ours, theirs) = ours_and_libgit2(&t);
            assert_eq!(ours, theirs, "index version {version}");
            let index = Index::read(&t.path().join(".git/index")).expect("parse");
            assert!(index.entries.iter().any(|e| e.intent_to_add), "version {version}");
        }
    }

    #[test]
    fn a_truncated_or_corrupted_index_is_unsupported_never_a_panic() {
        let t = TestRepo::with_commit();
        fill(&t);
        t.git(&["read-tree", "HEAD"]);
        for version in ["4", "2"] {
            t.git(&["update-index", "--index-version", version]);
            let bytes = std::fs::read(t.path().join(".git/index")).expect("read");
            for cut in 0..bytes.len() {
                let _ = Index::parse(&bytes[..cut]);
            }
            let mut huge = bytes.clone();
            huge[8] = 0xff;
            assert!(Index::parse(&huge).is_err(), "a count past the file's end");
            for at in (0..bytes.len()).step_by(7) {
                let mut bad = bytes.clone();
                bad[at] ^= 0xff;
                let _ = Index::parse(&bad);
            }
        }
    }

    #[test]
    fn entries_out_of_order_are_unsupported_for_readers_search_by_path() {
        let t = TestRepo::new();
        t.write("a.txt", "a\n");
        t.write("b.txt", "b\n");
        t.git(&["update-index", "--index-version", "2"]);
        t.git(&["add", "a.txt", "b.txt"]);
        let bytes = std::fs::read(t.path().join(".git/index")).expect("read");
        let index = Index::parse(&bytes).expect("in order");
        assert_eq!(index.entries.iter().map(|e| e.path.as_slice()).collect::<Vec<_>>(), [b"a.txt", b"b.txt"]);
        // Two entries of one size (62 bytes and a 5-byte name, padded to 72): swapped.
        let mut swapped = bytes.clone();
        swapped[12..84].copy_from_slice(&bytes[84..156]);
        swapped[84..156].copy_from_slice(&bytes[12..84]);
        let err = Index::parse(&swapped).expect_err("out of order");
        assert!(err.0.contains("out of order"), "{err:?}");
    }

    #[test]
    fn the_cache_tree_is_read_and_a_required_extension_is_unsupported() {
        let t = TestRepo::with_commit();
        fill(&t);
        t.git(&["read-tree", "HEAD"]);
        let index = Index::read(&t.path().join(".git/index")).expect("parse");
        let cache = index.cache.expect("a cache tree after read-tree");
        let head_tree = t.git(&["rev-parse", "HEAD^{tree}"]);
        assert_eq!(cache.id.expect("valid").to_string(), head_tree.trim());
        let mut bytes = std::fs::read(t.path().join(".git/index")).expect("read");
        let end = bytes.len() - 20;
        bytes.splice(end..end, b"link\0\0\0\0".iter().copied());
        assert!(Index::parse(&bytes).is_err());
    }

    #[test]
    fn staged_changes_agree_with_libgit2s_diff() {
        let t = TestRepo::with_commit();
        fill(&t);
        t.git(&["read-tree", "HEAD"]);
        let check = |t: &TestRepo| {
            let repo = t.open();
            let head = repo.head().ok().map(|h| h.peel_to_tree().expect("tree"));
            let index = Index::read(&t.path().join(".git/index")).expect("parse");
            let (mut ours, _) = staged(&repo, head.as_ref(), &index).expect("staged");
            ours.sort();
            let git_index = repo.index().expect("index");
            let diff = repo.diff_tree_to_index(head.as_ref(), Some(&git_index), None).expect("diff");
            let mut theirs: Vec<String> = diff
                .deltas()
                .map(|d| {
                    let f = if d.new_file().exists() { d.new_file() } else { d.old_file() };
                    f.path().expect("path").to_string_lossy().into_owned()
                })
                .collect();
            theirs.sort();
            assert_eq!(ours, theirs);
        };
        check(&t);
        t.write("dir1/sub/file-1.txt", "changed\n");
        t.write("dir2/added.txt", "a\n");
        t.write("brand/new/dir.txt", "d\n");
        t.git(&["add", "-A"]);
        t.git(&["rm", "-q", "--cached", "-r", "dir0"]);
        t.git(&["rm", "-q", "--cached", "top.txt"]);
        t.remove("top.txt");
        t.write("top.txt/now-a-dir.txt", "x\n");
        t.git(&["add", "top.txt/now-a-dir.txt"]);
        check(&t);
        t.git(&["update-index", "--chmod=+x", "dir1/sub/file-4.txt"]);
        check(&t);
    }
}
