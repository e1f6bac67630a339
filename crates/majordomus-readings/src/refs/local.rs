//! The local branches' tips, read from the ref files themselves, with what
//! an earlier `check` read kept for the files that have not changed since.
//!
//! A repository can hold thousands of branches, and `check` needs every
//! one's tip at every stop (what was created since the start, what moved).
//! libgit2 reads each loose ref with five system calls on every read; git
//! status reads none. Here the files under `refs/heads` are listed and
//! stat'ed relative to their directory (the fingerprint stats them anyway),
//! and a file is opened only when its stat differs from the one [`Known`]
//! holds for it: a ref git rewrites is a new file (written beside it and
//! renamed over it: a new inode and change time), one rewritten in place
//! has a new change time, which no tool can set back.
//!
//! What a stat cannot tell: two writes within the file system's clock tick,
//! the reading between them. A file changed less than [`SETTLED`] before it
//! was read is therefore not kept (git's own "racily clean" rule for its
//! index): it is read again next time.
//!
//! As git reads them (`git for-each-ref refs/heads`): `packed-refs` first,
//! a loose file overriding its packed line; a name ending in `.lock`, a
//! name git would refuse, and a file that is not `<id>\n` (a broken ref)
//! are no branch. A symbolic ref (`ref: refs/heads/main`) names a branch
//! rather than being one, and is left out (as the libgit2 reading this
//! replaced left it out).

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use git2::Oid;
use serde::{Deserialize, Serialize};

use crate::{Reading, Unread};

/// How long a ref file must have been unchanged when it is read for its
/// reading to be kept (see the module's essay).
pub const SETTLED: Duration = Duration::from_secs(2);

/// A ref file's identity on disk: any write to it changes one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    pub ino: u64,
    pub size: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
}

impl FileStamp {
    fn of(meta: &std::fs::Metadata) -> FileStamp {
        let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
        FileStamp {
            ino: meta.ino(),
            size: meta.size(),
            mtime_ns: ns(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: ns(meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// What was read from each loose ref file, by its full ref name, with the
/// file's stamp then.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known {
    /// Hashed, not ordered: thousands of names sharing a long prefix
    /// (`refs/heads/topic/...`) made an ordered map's comparisons a fifth of
    /// the reading.
    pub files: HashMap<String, KnownFile>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownFile {
    pub stamp: FileStamp,
    /// The commit id it held; `None`: a symbolic ref.
    pub id: Option<String>,
}

/// What [`branch_tips`] read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tips {
    /// The local branches (`refs/heads/...`, full names, sorted) and their
    /// commits.
    pub tips: Vec<(String, Oid)>,
    /// What to keep for the next read.
    pub kept: Known,
    /// The newest modification time (ns since the epoch) of `refs/heads`
    /// and of everything under it, as [`crate::fingerprint`] takes it;
    /// `None` where `refs/heads` is not a directory.
    pub newest_mtime_ns: Option<u64>,
}

/// The local branches and their commits, reading only the ref files whose
/// stamp is not the one `known` holds for them.
pub fn branch_tips(common_dir: &Path, known: &Known) -> Reading<Tips> {
    read_under(common_dir, "refs/heads", known, SystemTime::now())
}

/// Every direct ref under `under` (`refs/remotes`, say) and its commit,
/// sorted by name, read as [`branch_tips`] reads the branches (nothing
/// kept: every file read).
pub fn direct_refs(common_dir: &Path, under: &str) -> Reading<Vec<(String, Oid)>> {
    read_under(common_dir, under, &Known::default(), UNIX_EPOCH).map(|read| read.tips)
}

/// [`branch_tips`], with "now" given.
#[cfg(test)]
pub(crate) fn branch_tips_at(common_dir: &Path, known: &Known, now: SystemTime) -> Reading<Tips> {
    read_under(common_dir, "refs/heads", known, now)
}

fn read_under(common_dir: &Path, under: &str, known: &Known, now: SystemTime) -> Reading<Tips> {
    let mut tips = packed(common_dir, &format!("{under}/"))?;
    let mut kept = Known::default();
    let settled = now.checked_sub(SETTLED).unwrap_or(UNIX_EPOCH);
    let settled_ns = settled.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128);
    let dir = common_dir.join(under);
    let newest = match std::fs::symlink_metadata(&dir) {
        Ok(meta) if meta.is_dir() => Some(mtime_ns(&meta)),
        _ => None,
    };
    let mut loose = Loose { known, kept: &mut kept, tips: &mut tips, settled_ns, newest: newest.unwrap_or(0) };
    loose.walk(&dir, under)?;
    let newest_mtime_ns = newest.map(|_| loose.newest);
    let mut tips: Vec<(String, Oid)> = tips.into_iter().collect();
    tips.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(Tips { tips, kept, newest_mtime_ns })
}

/// A file's modification time as [`crate::fingerprint`] reads it (0 before
/// the epoch).
fn mtime_ns(meta: &std::fs::Metadata) -> u64 {
    u64::try_from(i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec())).unwrap_or(0)
}

/// The lines of `packed-refs` whose name starts with `prefix`.
fn packed(common_dir: &Path, prefix: &str) -> Reading<HashMap<String, Oid>> {
    let bytes = packed_lines(common_dir)?;
    Ok(bytes
        .split(|&b| b == b'\n')
        .filter_map(|line| packed_line(line, prefix))
        .map(|(name, id)| (name.to_string(), id))
        .collect())
}

/// The bytes of `packed-refs`; none where there is no such file.
fn packed_lines(common_dir: &Path) -> Reading<Vec<u8>> {
    let path = common_dir.join("packed-refs");
    match std::fs::read(&path) {
        Ok(b) => Ok(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(Unread::io(format!("could not read {}: {e}", path.display()))),
    }
}

/// One `<id> <name>` line of `packed-refs` whose name starts with `prefix`
/// and is one git accepts (`# pack-refs with: ...` and `^<peeled id>`
/// lines name no ref).
fn packed_line<'a>(line: &'a [u8], prefix: &str) -> Option<(&'a str, Oid)> {
    let (id, name) = (line.get(..40)?, line.get(41..)?);
    if line[40] != b' ' || !name.starts_with(prefix.as_bytes()) {
        return None;
    }
    let name = std::str::from_utf8(name).ok()?.trim_end_matches('\r');
    if !valid_refname(name) {
        return None;
    }
    Some((name, parse_id(id)?))
}

/// Whether git accepts `name` as a ref's name (its `check-ref-format`
/// rules; libgit2's `Reference::is_valid_name` says the same, at a cost
/// that showed with thousands of refs): no component empty or beginning
/// with `.` or ending with `.lock`; no `..`, `@{`, control character,
/// space or any of `~^:?*[\\`; not `@`, and not ending with `/` or `.`.
pub fn valid_refname(name: &str) -> bool {
    let forbidden = |b: u8| b < 0x20 || b == 0x7f || b" ~^:?*[\\".contains(&b);
    !name.is_empty()
        && name != "@"
        && !name.ends_with('.')
        && !name.contains("..")
        && !name.contains("@{")
        && !name.bytes().any(forbidden)
        && name.split('/').all(|c| !c.is_empty() && !c.starts_with('.') && !c.ends_with(".lock"))
}

struct Loose<'a> {
    known: &'a Known,
    kept: &'a mut Known,
    tips: &'a mut HashMap<String, Oid>,
    settled_ns: i128,
    /// The newest modification time seen (see [`Tips::newest_mtime_ns`]).
    newest: u64,
}

impl Loose<'_> {
    fn walk(&mut self, dir: &Path, prefix: &str) -> Reading<()> {
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Unread::io(format!("could not list {}: {e}", dir.display()))),
        };
        for entry in entries {
            let entry = entry.map_err(|e| Unread::io(format!("could not list {}: {e}", dir.display())))?;
            let kind = entry.file_type().map_err(|e| Unread::io(format!("could not list {}: {e}", dir.display())))?;
            if kind.is_dir() {
                if let Ok(meta) = entry.metadata() {
                    self.newest = self.newest.max(mtime_ns(&meta));
                }
                let Some(file_name) = entry.file_name().to_str().map(str::to_string) else { continue };
                self.walk(&entry.path(), &format!("{prefix}/{file_name}"))?;
                continue;
            }
            // Every entry's own stamp (a link's, not its target's), the
            // ones that are no branch too: the fingerprint's newest.
            let meta =
                entry.metadata().map_err(|e| Unread::io(format!("could not read {}: {e}", entry.path().display())))?;
            self.newest = self.newest.max(mtime_ns(&meta));
            let Some(file_name) = entry.file_name().to_str().map(str::to_string) else { continue };
            let name = format!("{prefix}/{file_name}");
            if !valid_refname(&name) {
                continue;
            }
            let content = if kind.is_symlink() {
                // A link is read through, as git and libgit2 read it, and
                // never kept: its stamp is not its target's.
                match std::fs::read(entry.path()) {
                    Ok(bytes) => parse(&bytes),
                    Err(_) => None,
                }
            } else {
                let stamp = FileStamp::of(&meta);
                let kept = self.known.files.get(&name).filter(|k| k.stamp == stamp).and_then(|k| match &k.id {
                    Some(id) => parse_id(id.as_bytes()).map(|oid| (k, Content::Id(oid))),
                    None => Some((k, Content::Symbolic)),
                });
                match kept {
                    Some((k, content)) => {
                        self.kept.files.insert(name.clone(), k.clone());
                        Some(content)
                    }
                    None => {
                        let read = match std::fs::read(entry.path()) {
                            Ok(bytes) => parse(&bytes),
                            // Gone between the listing and the read: no branch.
                            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                            Err(e) => return Err(Unread::io(format!("could not read {name}: {e}"))),
                        };
                        if stamp.ctime_ns < self.settled_ns && stamp.mtime_ns < self.settled_ns {
                            let id = match &read {
                                Some(Content::Id(oid)) => Some(Some(oid.to_string())),
                                Some(Content::Symbolic) => Some(None),
                                None => None,
                            };
                            if let Some(id) = id {
                                self.kept.files.insert(name.clone(), KnownFile { stamp, id });
                            }
                        }
                        read
                    }
                }
            };
            match content {
                Some(Content::Id(oid)) => {
                    self.tips.insert(name, oid);
                }
                // A symbolic or broken loose ref hides its packed line, as
                // in git.
                Some(Content::Symbolic) | None => {
                    self.tips.remove(&name);
                }
            }
        }
        Ok(())
    }
}

enum Content {
    Id(Oid),
    Symbolic,
}

/// A loose ref file's content as git parses it: an id followed by nothing
/// or white space, or `ref: ` and a name; anything else is broken.
fn parse(bytes: &[u8]) -> Option<Content> {
    if bytes.starts_with(b"ref:") {
        return Some(Content::Symbolic);
    }
    let id = bytes.get(..40)?;
    match bytes.get(40) {
        None => {}
        Some(b) if b.is_ascii_whitespace() => {}
        Some(_) => return None,
    }
    parse_id(id).map(Content::Id)
}

fn parse_id(id: &[u8]) -> Option<Oid> {
    if id.len() != 40 || !id.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    Oid::from_str(std::str::from_utf8(id).ok()?).ok()
}

#[cfg(test)]
mod tests;
