//! Files of one JSON value a line, only ever appended to (the ledger, the
//! carry history): a line is written whole or not at all, and a torn last
//! line is told apart from a damaged file.
//!
//! A write can stop part way: the disk fills, a file size limit is reached,
//! the machine loses power. Left as it is, the partial line would make
//! every later reading of the file fail. So [`append_whole`] notes the
//! length before it writes and, if the line does not go in whole, cuts the
//! file back to that length. What it cannot prevent (a crash between the
//! write and the cut, a power loss) leaves a last line without its final
//! newline; a reader ([`split`]) hands that tail back apart from the whole
//! lines, so the caller can ignore it and say so, and the next append
//! repairs it: a tail that is a whole value after all (a hand edit saved
//! without a final newline) is ended with the newline it lacked, anything
//! else is cut away. A damaged line in the middle, followed by others, was
//! not torn by a write: it stays an error for the reader.
//!
//! Appenders on one file are serialized by an exclusive `flock` on the file
//! itself ([`append_locked`]), so the length noted is the length written at.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::FileExt;

use rustix::fs::FlockOperation;

use crate::confined::{Dir, PlaceError};

/// What [`append_whole`] needs of a file: appending writes, its length,
/// reading back, and cutting back.
pub trait Appendable: Write {
    fn size(&self) -> io::Result<u64>;
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
    fn truncate(&self, len: u64) -> io::Result<()>;
}

impl Appendable for File {
    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        FileExt::read_at(self, buf, offset)
    }

    fn truncate(&self, len: u64) -> io::Result<()> {
        self.set_len(len)
    }
}

/// The lines of a file: every whole line (ending in a newline) with its
/// 1-based number, and the last line when it has no final newline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    pub whole: Vec<(usize, &'a [u8])>,
    pub tail: Option<(usize, &'a [u8])>,
}

/// Splits `bytes` into [`Split`]'s whole lines and tail.
pub fn split(bytes: &[u8]) -> Split<'_> {
    let mut whole = Vec::new();
    let mut rest = bytes;
    let mut n = 0;
    while let Some(i) = rest.iter().position(|b| *b == b'\n') {
        n += 1;
        whole.push((n, &rest[..i]));
        rest = &rest[i + 1..];
    }
    let tail = (!rest.is_empty()).then_some((n + 1, rest));
    Split { whole, tail }
}

/// Appends `line` (which ends in a newline) whole or not at all, first
/// repairing a torn tail: kept with a newline when `keep` says it is a
/// whole value, else cut away. On failure the file is as it was before
/// (the repair aside) and the error is returned.
pub fn append_whole<A: Appendable>(file: &mut A, line: &[u8], keep: impl Fn(&[u8]) -> bool) -> io::Result<()> {
    let mut len = file.size()?;
    if let Some((start, tail)) = tail(file)? {
        if keep(&tail) {
            write_or_cut(file, b"\n", len)?;
            len += 1;
        } else {
            file.truncate(start)?;
            len = start;
        }
    }
    write_or_cut(file, line, len)
}

/// Writes `bytes` at the end, or cuts the file back to `len` and fails.
fn write_or_cut<A: Appendable>(file: &mut A, bytes: &[u8], len: u64) -> io::Result<()> {
    match file.write_all(bytes).and_then(|()| file.flush()) {
        Ok(()) => Ok(()),
        Err(e) => match file.truncate(len) {
            Ok(()) => Err(e),
            Err(cut) => Err(io::Error::new(
                e.kind(),
                format!("{e}; and the partial line could not be cut away ({cut}): the next append will"),
            )),
        },
    }
}

fn last_byte<A: Appendable>(file: &A, len: u64) -> io::Result<u8> {
    let mut b = [0u8; 1];
    read_exact_at(file, &mut b, len - 1)?;
    Ok(b[0])
}

/// Where the last line of a file `len` bytes long begins: just after its
/// last newline, or 0.
fn last_line_start<A: Appendable>(file: &A, len: u64) -> io::Result<u64> {
    const CHUNK: u64 = 8192;
    let mut end = len;
    let mut buf = vec![0u8; CHUNK as usize];
    while end > 0 {
        let start = end.saturating_sub(CHUNK);
        let chunk = &mut buf[..usize::try_from(end - start).map_err(io::Error::other)?];
        read_exact_at(file, chunk, start)?;
        if let Some(i) = chunk.iter().rposition(|b| *b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

fn read_exact_at<A: Appendable>(file: &A, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match file.read_at(buf, offset)? {
            0 => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the file shrank while it was read")),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// The last line of `file` when it has no final newline: where it starts,
/// and its bytes. `None` for an empty file or one that ends in a newline.
pub fn tail<A: Appendable>(file: &A) -> io::Result<Option<(u64, Vec<u8>)>> {
    let len = file.size()?;
    if len == 0 || last_byte(file, len)? == b'\n' {
        return Ok(None);
    }
    let start = last_line_start(file, len)?;
    let mut bytes = vec![0; usize::try_from(len - start).map_err(io::Error::other)?];
    read_exact_at(file, &mut bytes, start)?;
    Ok(Some((start, bytes)))
}

/// Opens `name` in `dir` for appending (never through a link), holds an
/// exclusive lock on it while [`append_whole`] writes `line`, and flushes
/// it to disk. Returns the file's length just after `line`, where `line`
/// ends.
pub fn append_locked(dir: &Dir, name: &str, line: &[u8], keep: impl Fn(&[u8]) -> bool) -> Result<u64, AppendError> {
    let mut file = dir.append(name)?;
    let path = dir.path().join(name);
    let failed = |source| AppendError::Io { path: path.clone(), source };
    rustix::fs::flock(&file, FlockOperation::LockExclusive).map_err(|e| failed(e.into()))?;
    append_whole(&mut file, line, keep).map_err(failed)?;
    file.sync_data().map_err(failed)?;
    file.size().map_err(failed)
}

#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    #[error(transparent)]
    Place(#[from] PlaceError),
    #[error("cannot append to {}; nothing was written", path.display())]
    Io {
        path: std::path::PathBuf,
        #[source]
        source: io::Error,
    },
}

#[cfg(test)]
#[path = "lines/tests.rs"]
mod tests;
