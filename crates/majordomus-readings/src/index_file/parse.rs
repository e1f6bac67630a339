//! One index file's bytes: its entries and extensions, in the file's
//! order, before a split index is joined with its shared file.

use std::io::Read;

use git2::Oid;

/// One stage of one path in the index. Its path is kept with every other
/// entry's in one buffer, [`Paths`]: [`Entry::path`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Where the path lies in the index's [`Paths`].
    pub at: PathAt,
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

impl Entry {
    /// This entry's path, held in `paths` (its index's).
    pub fn path<'p>(&self, paths: &'p Paths) -> &'p [u8] {
        paths.get(self.at)
    }
}

/// Where one path lies in a [`Paths`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathAt {
    start: u32,
    len: u32,
}

/// The paths of an index's entries, one after the other in one buffer: one
/// allocation for all of them instead of one each (an entry with a `Vec`
/// of its own took 80 bytes and a heap block of 48 for a path of 32; it
/// takes 60 and the path's 32 bytes here).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Paths(Vec<u8>);

impl Paths {
    /// Room for about `bytes` bytes of paths.
    pub fn with_capacity(bytes: usize) -> Paths {
        Paths(Vec::with_capacity(bytes))
    }

    /// Adds `path`, and says where it lies.
    pub fn push(&mut self, path: &[u8]) -> Result<PathAt, Unsupported> {
        let start = self.0.len();
        self.0.extend_from_slice(path);
        self.at(start)
    }

    /// Adds the first `keep` bytes of the path at `previous` followed by
    /// `rest` (index version 4 stores a path as a change to the one before).
    fn push_after(&mut self, previous: PathAt, keep: usize, rest: &[u8]) -> Result<PathAt, Unsupported> {
        let start = self.0.len();
        let from = previous.start as usize;
        self.0.extend_from_within(from..from + keep);
        self.0.extend_from_slice(rest);
        self.at(start)
    }

    fn at(&self, start: usize) -> Result<PathAt, Unsupported> {
        let big = || Unsupported("more than 4 GiB of paths".into());
        let len = u32::try_from(self.0.len() - start).map_err(|_| big())?;
        Ok(PathAt { start: u32::try_from(start).map_err(|_| big())?, len })
    }

    /// The path at `at`.
    pub fn get(&self, at: PathAt) -> &[u8] {
        &self.0[at.start as usize..][..at.len as usize]
    }
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
    pub(super) paths: Paths,
    pub(super) cache: Option<CacheTree>,
    /// A split index's `link` extension, as it is in the file.
    pub(super) link: Option<Vec<u8>>,
    pub(super) sparse: bool,
}

/// The entries and extensions of one index file's bytes, in the file's order.
pub(super) fn parts(b: &[u8]) -> Result<Parts, Unsupported> {
    read_parts(b, b.len() as u64)
}

/// How much of the file the parse holds at a time while it reads entries.
const WINDOW: usize = 128 << 10;

/// The entries and extensions of the index file `r` reads, in the file's
/// order, `size` its length as the file system reported it (a bound on what
/// a corrupted entry count may reserve, not trusted beyond that).
///
/// The entries are parsed as the file is read, through a window of
/// [`WINDOW`] bytes: the whole file (28.9 MB at 300,000 tracked files) is
/// never held beside the entries made of it. What follows the entries (the
/// extensions, the trailing checksum) is read whole: it is small beside them.
pub(super) fn read_parts(r: impl Read, size: u64) -> Result<Parts, Unsupported> {
    read_parts_through(r, size, WINDOW)
}

/// [`read_parts`] through a window of `window` bytes (the tests use one
/// smaller than an entry).
pub(super) fn read_parts_through(r: impl Read, size: u64, window: usize) -> Result<Parts, Unsupported> {
    let mut s = Window { r, buf: Vec::new(), pos: 0, window: window.max(1), eof: false };
    let early = || Unsupported("the index ends early".into());
    if !s.fill(12)? {
        return Err(early());
    }
    let head = s.here();
    if &head[..4] != b"DIRC" {
        return Err(Unsupported("not an index file".into()));
    }
    let version = be32(head, 4)?;
    if !(2..=4).contains(&version) {
        return Err(Unsupported(format!("index version {version}")));
    }
    let count = be32(head, 8)? as usize;
    s.pos += 12;
    // An entry takes at least 62 bytes: a corrupted count reserves no more than the file can hold.
    let count_in_file = count.min(usize::try_from(size / 62).unwrap_or(usize::MAX));
    let mut entries = Vec::with_capacity(count_in_file);
    // What the file holds beyond the entries' fixed parts: the paths and
    // their padding (version 4: no padding, shared prefixes not repeated,
    // so a guess; the buffer grows past it if it must).
    let mut paths = Paths::with_capacity(usize::try_from(size).unwrap_or(0).saturating_sub(12 + 62 * count_in_file));
    let mut previous = PathAt { start: 0, len: 0 };
    for _ in 0..count {
        let fixed = if !s.fill(62)? {
            return Err(early());
        } else if u16::from_be_bytes([s.here()[60], s.here()[61]]) & 0x4000 != 0 {
            if version < 3 {
                return Err(Unsupported("an extended entry in a version 2 index".into()));
            }
            64
        } else {
            62
        };
        // The fixed part, a version 4 path's prefix length (a varint, which
        // may hold a NUL), the path up to its NUL.
        let (strip, name) = if version == 4 {
            s.fill(fixed + VARINT_MAX)?;
            let (strip, used) =
                s.here().get(fixed..).and_then(varint).ok_or_else(|| Unsupported("a bad path prefix".into()))?;
            (strip, fixed + used)
        } else {
            (0, fixed)
        };
        let nul = s.find_nul(name)?;
        let b = s.here();
        let f = |i: usize| be32(b, 4 * i);
        let id = Oid::from_bytes(&b[40..60]).map_err(|e| Unsupported(e.message().to_string()))?;
        let flags = u16::from_be_bytes([b[60], b[61]]);
        let extended = if fixed == 64 { u16::from_be_bytes([b[62], b[63]]) } else { 0 };
        let (at, used) = if version == 4 {
            let keep =
                (previous.len as usize).checked_sub(strip).ok_or_else(|| Unsupported("a bad path prefix".into()))?;
            // Version 4 paths are stored as a change to the one before.
            previous = paths.push_after(previous, keep, &b[name..nul])?;
            (previous, nul + 1)
        } else {
            // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
            (paths.push(&b[fixed..nul])?, (nul + 8) & !7)
        };
        let entry = Entry {
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
            at,
        };
        if !s.fill(used)? {
            return Err(early());
        }
        s.pos += used;
        entries.push(entry);
    }
    // The extensions and the checksum, whole.
    let mut b = s.here().to_vec();
    drop(s.buf);
    s.r.read_to_end(&mut b).map_err(|e| Unsupported(format!("cannot read the index: {e}")))?;
    // The entries end before the trailing checksum, or the file was cut short.
    let body_end = b.len().checked_sub(20).ok_or_else(early)?;
    let mut at = 0;
    let mut parts = Parts { entries, paths, cache: None, link: None, sparse: false };
    while at + 8 <= body_end {
        let sig = &b[at..at + 4];
        let size = be32(&b, at + 4)? as usize;
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

/// The part of the file the parse is at: `buf[pos..]`, refilled from `r`,
/// up to `window` bytes at a time, as the parse moves on.
struct Window<R> {
    r: R,
    buf: Vec<u8>,
    pos: usize,
    window: usize,
    eof: bool,
}

impl<R: Read> Window<R> {
    /// The bytes read and not yet parsed.
    fn here(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// At least `n` bytes in [`Window::here`], reading more as needed (past
    /// the window for an entry larger than it); `false` when the file ends
    /// first.
    #[inline]
    fn fill(&mut self, n: usize) -> Result<bool, Unsupported> {
        if self.buf.len() - self.pos >= n {
            return Ok(true);
        }
        self.refill(n)
    }

    /// [`Window::fill`] when the bytes are not there yet.
    #[cold]
    fn refill(&mut self, n: usize) -> Result<bool, Unsupported> {
        while self.buf.len() - self.pos < n {
            if self.eof {
                return Ok(false);
            }
            self.buf.drain(..self.pos);
            self.pos = 0;
            let want = n.max(self.window) - self.buf.len();
            self.buf.reserve_exact(want);
            // Read into the spare capacity (no zeroing first), until `want`
            // bytes or the end of the file.
            let got = (&mut self.r)
                .take(want as u64)
                .read_to_end(&mut self.buf)
                .map_err(|e| Unsupported(format!("cannot read the index: {e}")))?;
            self.eof = got < want;
        }
        Ok(true)
    }

    /// The offset in [`Window::here`] of the first NUL at or after `from`,
    /// reading on until there is one.
    fn find_nul(&mut self, from: usize) -> Result<usize, Unsupported> {
        let mut searched = from;
        loop {
            if let Some(i) = self.here().get(searched..).and_then(|b| b.iter().position(|c| *c == 0)) {
                return Ok(searched + i);
            }
            searched = searched.max(self.buf.len() - self.pos);
            if !self.fill(searched + 1)? {
                return Err(Unsupported("an unterminated path".into()));
            }
        }
    }
}

/// The longest varint [`varint`] reads: ten bytes hold any 64-bit value.
const VARINT_MAX: usize = 10;

/// Git's offset varint (the one of pack files' ofs-delta and index v4), and
/// the bytes it takes; `None` past [`VARINT_MAX`] bytes or a value that
/// does not fit.
fn varint(b: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    let mut c = *b.first()?;
    let mut value = usize::from(c & 0x7f);
    while c & 0x80 != 0 {
        i += 1;
        if i >= VARINT_MAX {
            return None;
        }
        c = *b.get(i)?;
        value = value.checked_add(1)?.checked_mul(128)? | usize::from(c & 0x7f);
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
