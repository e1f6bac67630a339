//! Reading a working-tree file's content without ever blocking on it.
//!
//! The working tree can hold what is not a file: a FIFO, a socket, a
//! device. Opening a FIFO for reading waits for a writer, forever if none
//! comes, so a plain `open` (what `std::fs::read` and libgit2's `hash_file`
//! do) would hang every command on a named pipe left in the tree. Every
//! reading of working-tree content goes through [`read`]: it opens with
//! `O_NONBLOCK` (a FIFO then opens at once), asks the opened descriptor
//! what it is, and refuses whatever is not a regular file before reading a
//! byte. Asking the descriptor rather than the path first leaves no moment
//! in which the path could be swapped for a FIFO between the look and the
//! open. git takes the same view of such things: `git status` lists no
//! untracked FIFO, calls a tracked file a FIFO took the place of modified,
//! and `git add` refuses one as an unsupported file type.
//!
//! A working-tree path is reached as git reaches it ([`in_tree`]): git
//! never follows a symbolic link in a path's leading directories (a
//! tracked directory replaced by a link to a copy of it is its files
//! deleted), so no reader of a tracked or untracked path's content does.

use std::io::Read;
use std::path::{Path, PathBuf};

use git2::Oid;
use majordomus_records::RepoPath;
use rustix::fs::{FileType, Mode, OFlags};

/// Why a working-tree file's content could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The path holds something that has no content to read.
    #[error("{} is {kind}, not a regular file", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("could not read {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// Larger than [`MAX_WHOLE`]: not read whole (its blob id is still
    /// [`blob_id`]'s to hash, a buffer at a time).
    #[error("{} is too large to read whole ({size} bytes, more than {max})", path.display(), max = MAX_WHOLE)]
    TooLarge { path: PathBuf, size: u64 },
}

/// The most bytes [`read`] holds in memory at once: a file larger (a disk
/// image, a dataset left in the tree) is refused, never allocated for,
/// so no file makes a command run out of memory and abort.
pub const MAX_WHOLE: u64 = 256 << 20;

impl FileError {
    /// Whether nothing is at the path (or a component of it is no directory).
    pub fn is_not_found(&self) -> bool {
        match self {
            Self::Io { source, .. } => {
                source.kind() == std::io::ErrorKind::NotFound
                    || source.raw_os_error() == Some(rustix::io::Errno::NOTDIR.raw_os_error())
            }
            Self::NotRegular { .. } | Self::TooLarge { .. } => false,
        }
    }
}

pub use majordomus_records::regular::kind_name;

/// The content of the regular file at `path` (a symlink is followed), read
/// without blocking: anything else is [`FileError::NotRegular`].
pub fn read(path: &Path) -> Result<Vec<u8>, FileError> {
    let (file, size) = open(path)?;
    let too_large = |size| FileError::TooLarge { path: path.to_path_buf(), size };
    if size > MAX_WHOLE {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // Bounded as it is read too: a file that grows meanwhile stops at it.
    file.take(MAX_WHOLE + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| FileError::Io { path: path.to_path_buf(), source })?;
    if bytes.len() as u64 > MAX_WHOLE {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// [`read`], with nothing at `path` (or a component of it no directory)
/// read as `None`.
pub fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, FileError> {
    match read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(e),
    }
}

/// The regular file at `path` (a symlink is followed), opened without
/// blocking, and its size: anything else is [`FileError::NotRegular`].
pub fn open(path: &Path) -> Result<(std::fs::File, u64), FileError> {
    let io = |source: std::io::Error| FileError::Io { path: path.to_path_buf(), source };
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
    let fd = rustix::fs::open(path, flags, Mode::empty()).map_err(|e| io(e.into()))?;
    let st = rustix::fs::fstat(&fd).map_err(|e| io(e.into()))?;
    let kind = FileType::from_raw_mode(st.st_mode);
    if kind != FileType::RegularFile {
        return Err(FileError::NotRegular { path: path.to_path_buf(), kind: kind_name(kind) });
    }
    // O_NONBLOCK means nothing to a regular file: reads of it are plain ones.
    Ok((std::fs::File::from(fd), u64::try_from(st.st_size).unwrap_or(0)))
}

/// The blob id git would give the regular file at `path`: its raw content,
/// no filter applied (as `Oid::hash_file`, which would block on a FIFO),
/// hashed as it is read, a buffer at a time: a file of any size (a disk
/// image left untracked) costs its reading, never its size in memory.
/// A file that grows or shrinks while it is read is hashed as git would
/// refuse it: an error, not an id of some of its bytes.
pub fn blob_id(path: &Path) -> Result<Oid, FileError> {
    let (digest, _) = digest::<sha1::Sha1>(path, |size| format!("blob {size}\0").into_bytes())?;
    Oid::from_bytes(&digest)
        .map_err(|e| FileError::Io { path: path.to_path_buf(), source: std::io::Error::other(e.message().to_string()) })
}

/// The SHA-256 of the regular file at `path`'s content, and its size, read
/// as [`blob_id`] reads it: what a Git LFS pointer names its object by.
pub fn sha256(path: &Path) -> Result<([u8; 32], u64), FileError> {
    let (digest, size) = digest::<sha2::Sha256>(path, |_| Vec::new())?;
    let mut out = [0u8; 32];
    out.copy_from_slice(&digest);
    Ok((out, size))
}

/// The regular file at `path` hashed by `D` as it is read, after the bytes
/// `prefix` gives for its size, and its size.
fn digest<D: sha1::Digest>(path: &Path, prefix: impl FnOnce(u64) -> Vec<u8>) -> Result<(Vec<u8>, u64), FileError> {
    let io = |source: std::io::Error| FileError::Io { path: path.to_path_buf(), source };
    let (mut file, size) = open(path)?;
    let mut hasher = D::new();
    hasher.update(prefix(size));
    // A large file in a megabyte at a time (a read per 64 KiB of a 1 GiB
    // file cost four times its hashing); a small one in one read.
    let mut buffer = vec![0u8; usize::try_from(size).unwrap_or(usize::MAX).clamp(1, 1 << 20)];
    let mut read_so_far: u64 = 0;
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        hasher.update(&buffer[..n]);
        read_so_far += n as u64;
    }
    if read_so_far != size {
        return Err(io(std::io::Error::other(format!(
            "its size changed while it was read ({size} → {read_so_far} bytes)"
        ))));
    }
    Ok((hasher.finalize().to_vec(), size))
}

/// The working-tree path `rel` under `root`, `None` when one of its
/// leading directories is not a directory reached without a link (a
/// symbolic link, a file, nothing): git does not look through it, and the
/// path is not there. The last component is the caller's (`lstat` it, or
/// read it: a link there is a link git tracks).
pub fn in_tree(root: &Path, rel: &RepoPath) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = rel.as_bytes();
    let mut dir = root.to_path_buf();
    if let Some(last) = bytes.iter().rposition(|c| *c == b'/') {
        for part in bytes[..last].split(|c| *c == b'/').filter(|p| !p.is_empty()) {
            dir.push(std::ffi::OsStr::from_bytes(part));
            if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
                return None;
            }
        }
    }
    Some(rel.under(root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_through_a_linked_directory_is_not_in_the_tree() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("real/deep")).expect("mkdir");
        std::fs::write(dir.path().join("real/deep/a.rs"), "a\n").expect("write");
        std::os::unix::fs::symlink("real", dir.path().join("link")).expect("symlink");
        std::os::unix::fs::symlink("real/deep/a.rs", dir.path().join("file-link")).expect("symlink");
        assert_eq!(in_tree(dir.path(), &"real/deep/a.rs".into()), Some(dir.path().join("real/deep/a.rs")));
        assert_eq!(in_tree(dir.path(), &"link/deep/a.rs".into()), None, "a leading link is not followed");
        assert_eq!(in_tree(dir.path(), &"real/deep/a.rs/x".into()), None, "a file is no directory");
        assert_eq!(in_tree(dir.path(), &"missing/a.rs".into()), None);
        assert!(in_tree(dir.path(), &"file-link".into()).is_some(), "the last component is the caller's");
    }

    fn fifo(path: &Path) {
        rustix::fs::mknodat(rustix::fs::CWD, path, FileType::Fifo, Mode::from_raw_mode(0o644), 0).expect("mkfifo");
    }

    #[test]
    fn a_fifo_is_refused_at_once_and_a_file_is_read_and_hashed_as_git_does() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pipe = dir.path().join("pipe");
        fifo(&pipe);
        let err = read(&pipe).expect_err("a FIFO has no content to read");
        assert!(matches!(err, FileError::NotRegular { .. }), "{err}");
        assert!(err.to_string().contains("is a FIFO (named pipe), not a regular file"), "{err}");
        assert!(!err.is_not_found());
        let err = read(dir.path()).expect_err("a directory is not a file");
        assert!(err.to_string().contains("is a directory"), "{err}");
        let missing = read(&dir.path().join("missing")).expect_err("missing");
        assert!(missing.is_not_found(), "{missing}");
        let file = dir.path().join("file");
        std::fs::write(&file, "hello\n").expect("write");
        assert_eq!(read(&file).expect("read"), b"hello\n");
        assert_eq!(
            blob_id(&file).expect("hash"),
            Oid::hash_file(git2::ObjectType::Blob, &file).expect("libgit2's hash")
        );
    }

    #[test]
    fn a_files_blob_id_hashed_as_it_is_read_is_gits_at_every_size() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("file");
        // Empty, within one buffer, at its edge, and over several.
        for size in [0usize, 1, 65_535, 65_536, 65_537, 300_001] {
            let bytes: Vec<u8> = (0..size).map(|i| (i * 7 % 251) as u8).collect();
            std::fs::write(&file, &bytes).expect("write");
            let git = Oid::hash_object(git2::ObjectType::Blob, &bytes).expect("libgit2's hash");
            assert_eq!(blob_id(&file).expect("hash"), git, "{size} bytes");
        }
    }
}
