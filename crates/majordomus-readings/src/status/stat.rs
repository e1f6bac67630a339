//! The stat pass: one index entry against its file, as git's
//! `ie_match_stat` and `check_removed` compare them, reading the content
//! only when the stat data cannot settle it.
//!
//! - A path reached through a symbolic link is not there: git never
//!   follows a link in a path's leading directories (a tracked directory
//!   replaced by a link to a copy of it is its files deleted), so each
//!   directory is opened one component at a time, never following a link.
//! - A directory where a file was is the file deleted, unless it is a
//!   repository with a HEAD (then the file's type changed).
//! - A FIFO, socket or device where a file was is modified; it is never
//!   opened (opening a FIFO waits for a writer).
//! - Racily clean entries are re-read as git re-reads them: an entry whose
//!   modification time is not older, to the second, than the index file's
//!   (git compares whole seconds, so an entry written by a filesystem that
//!   keeps no nanoseconds cannot hide a same-second edit). Read for a
//!   task, an entry refreshed since its start is re-read too (`since.rs`),
//!   unless the start read the file already and its stamp says it has not
//!   changed since (`verified.rs`).
//! - Content is compared raw. Content that holds what an eol or ident
//!   conversion changes on its way into git (a CR, a `$Id`) is not settled
//!   here ([`Found::Ask`]): where a conversion could apply, libgit2, which
//!   applies those built-in conversions, answers for it; elsewhere the raw
//!   comparison does.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use git2::Oid;
use rustix::fd::OwnedFd;
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::verified::{self, Domain};
use crate::index_file::Entry;

pub(super) const MODE_MASK: u32 = 0o170000;
pub(super) const MODE_FILE: u32 = 0o100000;
pub(super) const MODE_LINK: u32 = 0o120000;
pub(super) const MODE_GITLINK: u32 = 0o160000;

/// What the stat pass found for one index entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Found {
    Clean,
    Modified,
    Deleted,
    /// Not settled here: libgit2 answers for this path.
    Ask,
}

/// What [`compare`] has to say of a file's stamp (`verified.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stamp {
    None,
    /// The file was read by content: its stamp, to keep if it is found
    /// clean (`Found::Clean`: its raw content is the blob; `Found::Ask`:
    /// if libgit2 finds it clean).
    Keep(u64),
    /// Not read: libgit2 found it clean at the start, and it has not
    /// changed since (`Found::Ask`, for the caller to settle).
    ConvertedAtStart,
}

/// What the comparison needs to know of the repository.
#[derive(Debug, Clone, Copy)]
pub(super) struct Settings<'a> {
    pub filemode: bool,
    /// The index file's modification time, seconds and nanoseconds.
    pub index_mtime: (i64, i64),
    /// An entry whose file time is not older, to the second, was refreshed
    /// since a task's start: its content decides (`since.rs`). `i64::MAX`
    /// for a reading as git's.
    pub refreshed_since: i64,
    /// The stamps of the files a task's start read by content
    /// (`verified.rs`): a file whose stamp is among them is its index
    /// entry's blob without being read. `None` for a reading as git's.
    pub verified: Option<&'a [u64]>,
    /// When the reading began, in nanoseconds since the epoch: a file read
    /// by content and found clean is stamped only if its change time is
    /// older enough than this.
    pub read_from_ns: i128,
    /// Some attributes file could set `working-tree-encoding`: a file left
    /// to its content is left to the conversions (`encoding.rs`), never
    /// compared raw.
    pub encodings: bool,
}

/// `lstat` relative to the file's directory, the directories opened one
/// component at a time without following a link, and kept open for the run
/// of entries they hold (the index is sorted by path): one path component
/// for the kernel to look up per file instead of the whole path.
pub(super) struct Stater<'a> {
    root: &'a Path,
    root_fd: Option<OwnedFd>,
    /// The open directories from the root down: each one's path and its
    /// descriptor (`None`: not a directory reached without a link).
    open: Vec<(Vec<u8>, Option<OwnedFd>)>,
}

/// Opens directory `name` inside `parent` without following a link:
/// `None` when it is missing, a link, or not a directory.
fn open_dir(parent: &OwnedFd, name: &[u8]) -> Result<Option<OwnedFd>, Errno> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(parent, std::ffi::OsStr::from_bytes(name), flags, Mode::empty()) {
        Ok(fd) => Ok(Some(fd)),
        Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => Ok(None),
        Err(e) => Err(e),
    }
}

impl<'a> Stater<'a> {
    pub(super) fn new(root: &'a Path) -> Self {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let root_fd = rustix::fs::open(root, flags, Mode::empty()).ok();
        Self { root, root_fd, open: Vec::new() }
    }

    pub(super) fn root(&self) -> &Path {
        self.root
    }

    /// The open directory `dir` (`""`: the root), `None` when it is not
    /// reached without a link.
    fn dir(&mut self, dir: &[u8]) -> Result<Option<&OwnedFd>, Errno> {
        if dir.is_empty() {
            return Ok(self.root_fd.as_ref());
        }
        // Keep the open directories that lead to `dir`.
        while let Some((path, _)) = self.open.last() {
            let leads = dir.starts_with(path) && (dir.len() == path.len() || dir[path.len()] == b'/');
            if leads {
                break;
            }
            self.open.pop();
        }
        let mut done = self.open.last().map_or(0, |(p, _)| p.len() + 1);
        while done <= dir.len() && self.open.last().map_or(0, |(p, _)| p.len()) < dir.len() {
            let end = dir[done..].iter().position(|c| *c == b'/').map_or(dir.len(), |i| done + i);
            let parent = match self.open.last() {
                Some((_, fd)) => fd.as_ref(),
                None => self.root_fd.as_ref(),
            };
            let fd = match parent {
                Some(p) => open_dir(p, &dir[done..end])?,
                None => None,
            };
            self.open.push((dir[..end].to_vec(), fd));
            done = end + 1;
        }
        Ok(self.open.last().and_then(|(_, fd)| fd.as_ref()))
    }

    /// `lstat` of `rel`, `NOENT` when a leading directory is missing or a link.
    pub(super) fn lstat(&mut self, rel: &[u8]) -> Result<rustix::fs::Stat, Errno> {
        let (dir, name) = match rel.iter().rposition(|c| *c == b'/') {
            Some(i) => (&rel[..i], &rel[i + 1..]),
            None => (&rel[..0], rel),
        };
        match self.dir(dir)? {
            Some(fd) => rustix::fs::statat(fd, std::ffi::OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW),
            None => Err(Errno::NOENT),
        }
    }
}

/// Compares one index entry (its path `path`) with its file as git does when no bit tells
/// it to look away (the caller decides what an assume-unchanged or
/// skip-worktree entry means). A gitlink is the caller's too.
///
/// With what it found, the stamp of a file it read by content and found
/// clean, when that is one a start keeps (`verified.rs`).
pub(super) fn compare(stater: &mut Stater<'_>, e: &Entry, path: &[u8], s: &Settings<'_>) -> (Found, Stamp) {
    let st = match stater.lstat(path) {
        Ok(st) => st,
        Err(Errno::NOENT | Errno::NOTDIR) => return (Found::Deleted, Stamp::None),
        Err(_) => return (Found::Ask, Stamp::None),
    };
    if let Some(found) = compare_stat(stater, e, path, s, &st) {
        return (found, Stamp::None);
    }
    // Left to the content: a file the start read and stamped is not read again.
    let kind = FileType::from_raw_mode(st.st_mode);
    if kind != FileType::RegularFile {
        return (compare_content(stater, e, path, kind == FileType::Symlink, false), Stamp::None);
    }
    let stamped = |domain| s.verified.is_some_and(|v| v.binary_search(&verified::stamp(path, e, &st, domain)).is_ok());
    if stamped(Domain::Raw) {
        return (Found::Clean, Stamp::None);
    }
    if stamped(Domain::Converted) {
        // Clean through the conversions at the start; the caller knows
        // whether the attributes files still are what they were.
        return (Found::Ask, Stamp::ConvertedAtStart);
    }
    let found = compare_content(stater, e, path, false, s.encodings);
    let domain = match found {
        Found::Clean => Domain::Raw,
        Found::Ask => Domain::Converted,
        _ => return (found, Stamp::None),
    };
    match verified::keepable(path, e, &st, s.read_from_ns, domain) {
        Some(stamp) => (found, Stamp::Keep(stamp)),
        None => (found, Stamp::None),
    }
}

/// The stat pass of [`compare`] on `st`: `None` where the content decides.
#[allow(clippy::unnecessary_cast)]
fn compare_stat(stater: &Stater<'_>, e: &Entry, path: &[u8], s: &Settings<'_>, st: &rustix::fs::Stat) -> Option<Found> {
    if e.intent_to_add {
        // Added with no content staged: differs from the index while it is there.
        return Some(Found::Modified);
    }
    let mode = e.mode & MODE_MASK;
    let kind = FileType::from_raw_mode(st.st_mode);
    let is_symlink = kind == FileType::Symlink;
    if kind == FileType::Directory {
        // A tracked file whose place a directory took: the file is gone,
        // unless the directory is a repository (then its type changed).
        let dir = stater.root().join(std::ffi::OsStr::from_bytes(path));
        return Some(if super::nested::head_of(&dir).is_some() { Found::Modified } else { Found::Deleted });
    }
    if !is_symlink && kind != FileType::RegularFile {
        // A FIFO, socket or device where a file was: git's status calls it
        // modified. Its content is never read (opening a FIFO waits for a writer).
        return Some(Found::Modified);
    }
    if (mode == MODE_LINK) != is_symlink {
        return Some(Found::Modified);
    }
    if s.filemode && mode != MODE_LINK && (e.mode & 0o100) != (st.st_mode as u32 & 0o100) {
        return Some(Found::Modified);
    }
    // Index times are 32-bit seconds and nanoseconds; a nanosecond part of 0
    // is a writer that kept none, compared to the second.
    let same_time = |secs: i64, nsecs: i64, (sec, ns): (u32, u32)| {
        i64::from(sec) == (secs & 0xffff_ffff) && (ns == 0 || i64::from(ns) == nsecs)
    };
    let stat_clean = (e.size as i64) == (st.st_size as i64 & 0xffff_ffff)
        && same_time(st.st_mtime as i64, st.st_mtime_nsec as i64, e.mtime)
        && same_time(st.st_ctime as i64, st.st_ctime_nsec as i64, e.ctime)
        && (e.ino == 0 || u64::from(e.ino) == (st.st_ino as u64 & 0xffff_ffff));
    // Racy as git decides it, to the whole second; or refreshed since the
    // start, when its stat data is not the start's to vouch with.
    let racy = i64::from(e.mtime.0) >= s.index_mtime.0 || i64::from(e.mtime.0) >= s.refreshed_since;
    if stat_clean && !racy {
        return Some(Found::Clean);
    }
    // A size that differs from a recorded one is a change, whatever a
    // conversion would make of the content (git's `ie_modified`); a size of
    // 0 is one never recorded (a smudged or fresh entry): the content decides.
    if e.size != 0 && (e.size as i64) != (st.st_size as i64 & 0xffff_ffff) {
        return Some(Found::Modified);
    }
    None
}

/// The content pass of [`compare`]: the file (or the link's target) hashed
/// as a blob against the entry's.
fn compare_content(stater: &Stater<'_>, e: &Entry, path: &[u8], is_symlink: bool, encodings: bool) -> Found {
    let path = stater.root().join(std::ffi::OsStr::from_bytes(path));
    if is_symlink {
        let id = std::fs::read_link(&path)
            .ok()
            .and_then(|t| Oid::hash_object(git2::ObjectType::Blob, t.as_os_str().as_encoded_bytes()).ok());
        return match id {
            Some(id) if id == e.id => Found::Clean,
            Some(_) => Found::Modified,
            None => Found::Ask,
        };
    }
    if encodings {
        // Its encoding in the working tree, if it has one, is the
        // attributes' to say (`encoding.rs`).
        return Found::Ask;
    }
    let Ok(bytes) = crate::file::read(&path) else { return Found::Ask };
    if convertible(&bytes) {
        // Whether git would convert it is decided once the walk has seen
        // every attributes file (`fast.rs`).
        return Found::Ask;
    }
    if crate::blob_oid(&bytes) == e.id {
        Found::Clean
    } else {
        Found::Modified
    }
}

/// Whether an eol or ident conversion could change this content on its
/// way into git: it holds a carriage return, or an `$Id` keyword.
fn convertible(bytes: &[u8]) -> bool {
    bytes.contains(&b'\r') || bytes.windows(3).any(|w| w == b"$Id")
}
