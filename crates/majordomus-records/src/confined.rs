//! Every file majordomus creates, appends to, locks, replaces or removes is
//! reached from a trusted directory without following a symbolic link on
//! the way: this module is the one way to get there.
//!
//! A clone brings whatever its commits hold, symbolic links included, and
//! a link is tracked like any file (`git add -f` puts one even where
//! `.gitignore` says nothing goes). A link committed at
//! `.ai/local/state/ledger.jsonl`, at `.ai/local/state/archive/` or at a
//! directory above them would make an ordinary `open` write wherever it
//! points, anywhere on the machine the person running majordomus may write.
//! So a path is never handed to the kernel whole: the trusted base (the
//! working tree's root, or the common git directory, which majordomus
//! found itself) is opened, then each directory below it with `openat`,
//! `O_DIRECTORY | O_NOFOLLOW`, creating the missing ones with `mkdirat`,
//! and the file last of all with `O_NOFOLLOW` in the directory so reached.
//! A link anywhere below the base is refused with [`PlaceError::Link`],
//! naming the link and where it points, and nothing is written.
//!
//! Replacing a file is a temporary file created (`O_EXCL`) in the verified
//! directory, written, flushed, then renamed over the name within that same
//! directory: a reader sees the old file or the new one, never half of
//! either, and the rename replaces a link at the name rather than writing
//! through it. Only regular files are opened: a FIFO or a device planted at
//! a name is refused, never waited on.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags};
use rustix::io::Errno;

/// Whether a replacement is flushed to the disk before it is renamed into place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flush {
    Yes,
    No,
}

/// Why a place could not be reached or written.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// A symbolic link where majordomus would write: refused, nothing written.
    #[error(
        "{} is a symbolic link (to {}): majordomus never writes through a link below {}; make it a plain {} (or remove it); nothing was written",
        path.display(),
        crate::text::escape(target),
        base.display(),
        kind.noun()
    )]
    Link { path: PathBuf, target: String, base: PathBuf, kind: Kind },
    /// Something other than a directory where one is needed, or other than
    /// a regular file where a file is written.
    #[error("{} is not a {}, where majordomus keeps one; move it away; nothing was written", path.display(), kind.noun())]
    NotA { path: PathBuf, kind: Kind },
    /// A path that is not plainly below its base (`..`, absolute).
    #[error("{} is not below {}: majordomus writes only below it", path.display(), base.display())]
    Outside { path: PathBuf, base: PathBuf },
    #[error("cannot {doing} {}", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl PlaceError {
    /// Whether the place itself was refused (a link, a non-file, a path not
    /// below its base): the person's to repair, not a failure inside.
    pub fn is_refusal(&self) -> bool {
        !matches!(self, PlaceError::Io { .. })
    }

    /// The underlying I/O error's kind, where there is one.
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        match self {
            PlaceError::Io { source, .. } => Some(source.kind()),
            _ => None,
        }
    }
}

/// What was expected at a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Directory,
    File,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Directory => "directory",
            Kind::File => "regular file",
        }
    }
}

/// The permissions a replaced or created file ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Perm {
    /// 0600: majordomus's own state.
    Private,
    /// 0644 less the umask: a file people read (an agent's settings).
    Shared,
    /// Exactly this mode (the mode of the file replaced, or 0755 for a hook).
    Exactly(u32),
}

/// A directory reached from a trusted base without following a link.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
    path: PathBuf,
    base: PathBuf,
}

/// Opens the directory `rel` below `base`, creating what is missing when
/// `create` is set. `base` itself is opened as given: it is the working
/// tree's root or the common git directory, found by majordomus, never read
/// from a file the repository holds.
pub fn open_dir(base: &Path, rel: &Path, create: bool) -> Result<Dir, PlaceError> {
    let names = plain_names(base, rel)?;
    // Opened first, created only when missing: a directory that is there
    // (every run but the first) costs one call, not a `mkdir` answered
    // EEXIST before it.
    let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
    let fd = match rustix::fs::open(base, flags, Mode::empty()) {
        Err(Errno::NOENT) if create => {
            std::fs::create_dir_all(base).map_err(|source| io_err("create the directory", base, source))?;
            rustix::fs::open(base, flags, Mode::empty())
        }
        opened => opened,
    }
    .map_err(|e| io_err("open the directory", base, e.into()))?;
    let mut dir = Dir { fd, path: base.to_path_buf(), base: base.to_path_buf() };
    for name in names {
        dir = dir.child(&name, create)?;
    }
    Ok(dir)
}

/// Opens the directory holding `path` (which lies below `base`), and
/// returns it with the file's name.
pub fn open_parent(base: &Path, path: &Path, create: bool) -> Result<(Dir, String), PlaceError> {
    let rel = path.strip_prefix(base).map_err(|_| outside(base, path))?;
    let name = match rel.file_name().and_then(|n| n.to_str()) {
        Some(n) if rel.components().next_back().is_some_and(|c| matches!(c, Component::Normal(_))) => n.to_string(),
        _ => return Err(outside(base, path)),
    };
    let dir = open_dir(base, rel.parent().unwrap_or(Path::new("")), create)?;
    Ok((dir, name))
}

fn outside(base: &Path, path: &Path) -> PlaceError {
    PlaceError::Outside { path: path.to_path_buf(), base: base.to_path_buf() }
}

/// The names of `rel`'s components, each a plain name (`.` dropped).
fn plain_names(base: &Path, rel: &Path) -> Result<Vec<String>, PlaceError> {
    let mut names = Vec::new();
    for c in rel.components() {
        match c {
            Component::CurDir => {}
            Component::Normal(n) => names.push(n.to_str().ok_or_else(|| outside(base, &base.join(rel)))?.to_string()),
            _ => return Err(outside(base, &base.join(rel))),
        }
    }
    Ok(names)
}

fn io_err(doing: &'static str, path: &Path, source: io::Error) -> PlaceError {
    PlaceError::Io { doing, path: path.to_path_buf(), source }
}

impl Dir {
    /// The directory's path as reached (for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The subdirectory `name`, created when missing and `create` is set.
    pub fn child(&self, name: &str, create: bool) -> Result<Dir, PlaceError> {
        let path = self.path.join(name);
        let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::RDONLY | OFlags::CLOEXEC;
        // Opened first, created only when missing (as in [`open_dir`]);
        // whatever is at the name, a link included, is judged by the open.
        let opened = match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Err(Errno::NOENT) if create => {
                match rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777)) {
                    // EEXIST: made by another writer meanwhile, or a link
                    // planted meanwhile, which the open below refuses.
                    Ok(()) | Err(Errno::EXIST) => {}
                    Err(e) => return Err(io_err("create the directory", &path, e.into())),
                }
                rustix::fs::openat(&self.fd, name, flags, Mode::empty())
            }
            opened => opened,
        };
        match opened {
            Ok(fd) => Ok(Dir { fd, path, base: self.base.clone() }),
            Err(Errno::LOOP | Errno::NOTDIR) => Err(self.refusal(name, Kind::Directory)),
            Err(e) => Err(io_err("open the directory", &path, e.into())),
        }
    }

    /// Why `name` here is not the `kind` wanted: a link (and its target),
    /// or something else.
    fn refusal(&self, name: &str, kind: Kind) -> PlaceError {
        let path = self.path.join(name);
        match rustix::fs::readlinkat(&self.fd, name, Vec::new()) {
            Ok(target) => {
                PlaceError::Link { path, target: target.to_string_lossy().into_owned(), base: self.base.clone(), kind }
            }
            Err(_) => PlaceError::NotA { path, kind },
        }
    }

    /// Opens `name` with `flags` (never following a link at it), and checks
    /// that it is a regular file.
    fn open_file(&self, name: &str, flags: OFlags, mode: u32, doing: &'static str) -> Result<File, PlaceError> {
        let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
        let fd = match rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(mode)) {
            Ok(fd) => fd,
            Err(Errno::LOOP) => return Err(self.refusal(name, Kind::File)),
            Err(Errno::NXIO | Errno::ISDIR) => {
                return Err(PlaceError::NotA { path: self.path.join(name), kind: Kind::File })
            }
            Err(e) => return Err(io_err(doing, &self.path.join(name), e.into())),
        };
        let file = File::from(fd);
        let meta = file.metadata().map_err(|e| io_err(doing, &self.path.join(name), e))?;
        if !meta.is_file() {
            return Err(PlaceError::NotA { path: self.path.join(name), kind: Kind::File });
        }
        Ok(file)
    }

    /// `name` opened for appending (and reading back), created (0666 less
    /// the umask) if missing.
    pub fn append(&self, name: &str) -> Result<File, PlaceError> {
        self.open_file(name, OFlags::RDWR | OFlags::APPEND | OFlags::CREATE, 0o666, "open for appending")
    }

    /// `name` opened for reading and writing, created if missing, never
    /// truncated: a lock file, or a file appended to with a look back.
    pub fn open_rw(&self, name: &str) -> Result<File, PlaceError> {
        self.open_file(name, OFlags::RDWR | OFlags::CREATE, 0o666, "open")
    }

    /// `name`'s bytes, `None` when there is no such file. A link at `name`
    /// is refused like any write: this is for files read to be rewritten.
    pub fn read(&self, name: &str) -> Result<Option<Vec<u8>>, PlaceError> {
        let mut file = match self.open_file(name, OFlags::RDONLY, 0, "read") {
            Ok(f) => f,
            Err(e) if e.io_kind() == Some(io::ErrorKind::NotFound) => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| io_err("read", &self.path.join(name), e))?;
        Ok(Some(bytes))
    }

    /// The mode of the regular file `name`, `None` when there is none; a
    /// link at `name` is refused.
    pub fn mode(&self, name: &str) -> Result<Option<u32>, PlaceError> {
        match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => {
                let kind = rustix::fs::FileType::from_raw_mode(st.st_mode);
                if kind == rustix::fs::FileType::Symlink {
                    return Err(self.refusal(name, Kind::File));
                }
                if kind != rustix::fs::FileType::RegularFile {
                    return Err(PlaceError::NotA { path: self.path.join(name), kind: Kind::File });
                }
                Ok(Some(st.st_mode & 0o7777))
            }
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(io_err("read", &self.path.join(name), e.into())),
        }
    }

    /// Replaces `name` with `bytes` atomically (see the module's essay).
    pub fn replace(&self, name: &str, bytes: &[u8], perm: Perm) -> Result<(), PlaceError> {
        self.replace_with(name, bytes, perm, Flush::Yes)
    }

    /// [`Dir::replace`] for a file the next run works out again if it is
    /// lost (the `gates.completion` document, a cache): atomic all the
    /// same, a reader sees the old file or the new one, but not flushed to
    /// the disk first. After a crash of the machine it may be the old one,
    /// or, on some file systems, empty: read as damaged, and rewritten by
    /// the next run. The flush is the one wait of a write (a millisecond or
    /// more on a disk, as long as the whole of a small `check`).
    pub fn replace_derived(&self, name: &str, bytes: &[u8], perm: Perm) -> Result<(), PlaceError> {
        self.replace_with(name, bytes, perm, Flush::No)
    }

    fn replace_with(&self, name: &str, bytes: &[u8], perm: Perm, flush: Flush) -> Result<(), PlaceError> {
        let tmp = self.temporary(bytes, perm, name, flush)?;
        rustix::fs::renameat(&self.fd, &tmp, &self.fd, name).map_err(|e| {
            let _ = rustix::fs::unlinkat(&self.fd, &tmp, AtFlags::empty());
            io_err("write", &self.path.join(name), e.into())
        })
    }

    /// Creates `name` with `bytes` atomically, only if it does not exist:
    /// `Ok(false)`, and nothing changed, when it does. Of two writers racing
    /// to create it, exactly one wins.
    pub fn create(&self, name: &str, bytes: &[u8], perm: Perm) -> Result<bool, PlaceError> {
        let tmp = self.temporary(bytes, perm, name, Flush::Yes)?;
        let placed = match rustix::fs::renameat_with(&self.fd, &tmp, &self.fd, name, RenameFlags::NOREPLACE) {
            // A file system without renameat2's flags: a hard link never replaces either.
            Err(Errno::INVAL | Errno::NOSYS) => rustix::fs::linkat(&self.fd, &tmp, &self.fd, name, AtFlags::empty())
                .map(|()| true)
                .or_else(|e| if e == Errno::EXIST { Ok(false) } else { Err(e) }),
            Err(Errno::EXIST) => Ok(false),
            Ok(()) => return Ok(true),
            Err(e) => Err(e),
        };
        let _ = rustix::fs::unlinkat(&self.fd, &tmp, AtFlags::empty());
        placed.map_err(|e| io_err("write", &self.path.join(name), e.into()))
    }

    /// Removes `name` (a link at it is removed itself, never followed):
    /// `Ok(false)` when there was nothing.
    pub fn remove(&self, name: &str) -> Result<bool, PlaceError> {
        match rustix::fs::unlinkat(&self.fd, name, AtFlags::empty()) {
            Ok(()) => Ok(true),
            Err(Errno::NOENT) => Ok(false),
            Err(e) => Err(io_err("remove", &self.path.join(name), e.into())),
        }
    }

    /// Renames `from` to `to` within this directory (a link moves as a link).
    pub fn rename(&self, from: &str, to: &str) -> Result<(), PlaceError> {
        rustix::fs::renameat(&self.fd, from, &self.fd, to)
            .map_err(|e| io_err("rename", &self.path.join(from), e.into()))
    }

    /// A new temporary file here holding `bytes`, flushed to disk, with
    /// its final permissions; its name.
    fn temporary(&self, bytes: &[u8], perm: Perm, for_name: &str, flush: Flush) -> Result<String, PlaceError> {
        let create_mode = match perm {
            Perm::Private => 0o600,
            Perm::Shared => 0o644,
            Perm::Exactly(_) => 0o600,
        };
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let target = self.path.join(for_name);
        for attempt in 0..64u32 {
            let name = format!(".majordomus-{:016x}.tmp", unique(attempt));
            let fd = match rustix::fs::openat(&self.fd, name.as_str(), flags, Mode::from_raw_mode(create_mode)) {
                Ok(fd) => fd,
                Err(Errno::EXIST) => continue,
                Err(e) => return Err(io_err("write", &target, e.into())),
            };
            let mut file = File::from(fd);
            let written = (|| {
                if let Perm::Exactly(mode) = perm {
                    rustix::fs::fchmod(file.as_fd(), Mode::from_raw_mode(mode))?;
                }
                file.write_all(bytes)?;
                match flush {
                    Flush::Yes => file.sync_all(),
                    Flush::No => Ok(()),
                }
            })();
            if let Err(e) = written {
                drop(file);
                let _ = rustix::fs::unlinkat(&self.fd, name.as_str(), AtFlags::empty());
                return Err(io_err("write", &target, e));
            }
            return Ok(name);
        }
        Err(io_err("write", &target, io::Error::new(io::ErrorKind::AlreadyExists, "no free temporary name")))
    }
}

/// A number no other temporary of this process or another is likely to
/// share: the process, the time, a counter, mixed by std's random hasher.
fn unique(attempt: u32) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u32(attempt);
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    h.finish()
}

#[cfg(test)]
#[path = "confined/tests.rs"]
mod tests;
