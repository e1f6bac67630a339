//! A split index, read as git reads it (`git help index-format`, section
//! "Split index").
//!
//! A split index (`link` extension) names a shared index file,
//! `sharedindex.<id>` in the git directory, and says how this file changes
//! it: a bitmap of shared entries deleted, a bitmap of shared entries
//! replaced (by this file's first entries, in order, whose names are left
//! empty), and this file's remaining entries added. Both bitmaps are
//! EWAH-compressed: runs of equal 64-bit words, then literal words.

use std::path::Path;

use git2::Oid;

use super::parse::{be32, read_parts, Entry, Paths, Unsupported};

/// A split index's `link` extension.
#[derive(Debug)]
pub(super) struct Link {
    shared: Oid,
    delete: Vec<usize>,
    replace: Vec<usize>,
}

impl Link {
    /// `None`: a link naming no shared file (all zeros), an index complete in itself.
    pub(super) fn parse(data: &[u8]) -> Result<Option<Link>, Unsupported> {
        let bad = || Unsupported("a malformed link extension".into());
        let shared = Oid::from_bytes(data.get(..20).ok_or_else(bad)?).map_err(|_| bad())?;
        if shared.is_zero() {
            return Ok(None);
        }
        let mut at = 20;
        let (delete, replace) = if at < data.len() {
            let delete = ewah_bits(data, &mut at)?;
            (delete, ewah_bits(data, &mut at)?)
        } else {
            (Vec::new(), Vec::new())
        };
        Ok(Some(Link { shared, delete, replace }))
    }
}

/// The positions of the set bits of the EWAH bitmap at `data[*at..]`; moves `*at` past it.
fn ewah_bits(data: &[u8], at: &mut usize) -> Result<Vec<usize>, Unsupported> {
    let bad = || Unsupported("a malformed bitmap in the link extension".into());
    let _bit_size = be32(data, *at).map_err(|_| bad())?;
    let words = be32(data, *at + 4).map_err(|_| bad())? as usize;
    let start = *at + 8;
    let end =
        words.checked_mul(8).and_then(|n| n.checked_add(start)).filter(|e| *e + 4 <= data.len()).ok_or_else(bad)?;
    let word = |i: usize| {
        let b = &data[start + 8 * i..start + 8 * i + 8];
        u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    };
    let mut bits = Vec::new();
    let (mut pos, mut i) = (0usize, 0usize);
    while i < words {
        let marker = word(i);
        let run = ((marker >> 1) & 0xffff_ffff) as usize * 64;
        if marker & 1 == 1 {
            bits.extend(pos..pos + run);
        }
        pos += run;
        i += 1;
        let literals = (marker >> 33) as usize;
        for _ in 0..literals {
            if i >= words {
                return Err(bad());
            }
            let w = word(i);
            bits.extend((0..64).filter(|b| w >> b & 1 == 1).map(|b| pos + b));
            pos += 64;
            i += 1;
        }
    }
    // The position of the last run marker, which a reader does not need.
    *at = end + 4;
    Ok(bits)
}

/// A split index's own entries (their paths in `own_paths`) joined with the
/// shared file it names in `dir`: the entries, and their paths.
pub(super) fn join(
    link: Link,
    own: Vec<Entry>,
    own_paths: &Paths,
    dir: &Path,
) -> Result<(Vec<Entry>, Paths), Unsupported> {
    let name = format!("sharedindex.{}", link.shared);
    let cannot =
        |e: crate::file::FileError| Unsupported(format!("cannot read the split index's shared file {name}: {e}"));
    let (file, size) = crate::file::open(&dir.join(&name)).map_err(cannot)?;
    let shared = read_parts(file, size)?;
    if shared.link.is_some() {
        return Err(Unsupported(format!("the shared index file {name} is split again")));
    }
    let (sp, op) = (&shared.paths, own_paths);
    let mut base = shared.entries;
    let bad = |what: &str| Unsupported(format!("a split index whose link extension {what}"));
    let mut own = own.into_iter();
    for &pos in &link.replace {
        let with = own.next().ok_or_else(|| bad("replaces more entries than it holds"))?;
        if !with.path(op).is_empty() {
            return Err(bad("names a replacing entry"));
        }
        let into = base.get_mut(pos).ok_or_else(|| bad("replaces past the shared file's end"))?;
        *into = Entry { at: into.at, ..with };
    }
    let mut keep = vec![true; base.len()];
    for &pos in &link.delete {
        *keep.get_mut(pos).ok_or_else(|| bad("deletes past the shared file's end"))? = false;
    }
    let kept: Vec<Entry> = base.into_iter().zip(keep).filter_map(|(e, k)| k.then_some(e)).collect();
    // The entries added, sorted as the shared ones: merged, an added entry
    // taking the place of a shared one of the same path and stage (a
    // resolved one, of every stage of its path).
    let added: Vec<Entry> = own.collect();
    if added.iter().any(|e| e.path(op).is_empty()) {
        return Err(bad("adds an entry without a name"));
    }
    // Each entry kept, its path copied from its file's paths into the joined ones.
    fn push(out: &mut (Vec<Entry>, Paths), mut e: Entry, from: &Paths) -> Result<(), Unsupported> {
        e.at = out.1.push(e.path(from))?;
        out.0.push(e);
        Ok(())
    }
    let mut out = (Vec::with_capacity(added.len() + kept.len()), Paths::default());
    let mut added = added.into_iter().peekable();
    for e in kept {
        while let Some(a) = added.next_if(|a| (a.path(op), a.stage) < (e.path(sp), e.stage)) {
            push(&mut out, a, op)?;
        }
        let replaced = added.peek().is_some_and(|a| a.path(op) == e.path(sp) && (a.stage == e.stage || a.stage == 0));
        if !replaced && !out.0.last().is_some_and(|l: &Entry| l.path(&out.1) == e.path(sp) && l.stage == 0) {
            push(&mut out, e, sp)?;
        }
    }
    for a in added {
        push(&mut out, a, op)?;
    }
    Ok(out)
}
