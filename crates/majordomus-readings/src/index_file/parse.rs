//! One index file's bytes: its entries and extensions, in the file's
//! order, before a split index is joined with its shared file.

use git2::Oid;

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
    /// `git update-index --assume-unchanged` (or `core.ignoreStat`): git
    /// takes the file for unchanged without looking at it.
    pub assume_valid: bool,
}

/// A node of the cache tree: a directory, and, when valid, the tree id its
/// entries would write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CacheTree {
    pub(super) name: Vec<u8>,
    pub(super) id: Option<Oid>,
    pub(super) children: Vec<CacheTree>,
}

/// An index this reader does not read; libgit2 does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

pub(super) fn be32(b: &[u8], at: usize) -> Result<u32, Unsupported> {
    b.get(at..at + 4)
        .map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| Unsupported("the index ends early".into()))
}

/// What one index file holds, before a split index is joined with its shared file.
pub(super) struct Parts {
    pub(super) entries: Vec<Entry>,
    pub(super) cache: Option<CacheTree>,
    /// A split index's `link` extension, as it is in the file.
    pub(super) link: Option<Vec<u8>>,
    pub(super) sparse: bool,
}

/// The entries and extensions of one index file, in the file's order.
pub(super) fn parts(b: &[u8]) -> Result<Parts, Unsupported> {
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
        let id =
            Oid::from_bytes(b.get(start + 40..start + 60).ok_or_else(|| Unsupported("the index ends early".into()))?)
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
            let nul = b[at..].iter().position(|c| *c == 0).ok_or_else(|| Unsupported("an unterminated path".into()))?;
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
            let nul = b[at..].iter().position(|c| *c == 0).ok_or_else(|| Unsupported("an unterminated path".into()))?;
            let p = b[at..at + nul].to_vec();
            // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
            at = start + ((at - start + nul + 8) & !7);
            p
        };
        if at > body_end {
            return Err(Unsupported("the index ends early".into()));
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
            assume_valid: flags & 0x8000 != 0,
            path,
        });
    }
    let mut parts = Parts { entries, cache: None, link: None, sparse: false };
    while at + 8 <= body_end {
        let sig = &b[at..at + 4];
        let size = be32(b, at + 4)? as usize;
        let data = b.get(at + 8..at + 8 + size).ok_or_else(|| Unsupported("an extension ends early".into()))?;
        match sig {
            b"TREE" => parts.cache = Some(cache_tree(data, &mut 0)?),
            b"link" => parts.link = Some(data.to_vec()),
            b"sdir" => parts.sparse = true,
            _ if !sig[0].is_ascii_uppercase() => {
                return Err(Unsupported(format!("the required index extension {:?}", String::from_utf8_lossy(sig))))
            }
            _ => {}
        }
        at += 8 + size;
    }
    Ok(parts)
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
