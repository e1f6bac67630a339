//! Opening a record to read it without ever waiting on it.
//!
//! A record is a file a worker can replace with anything: `mkfifo
//! .ai/local/state/ledger.jsonl` puts a named pipe where the ledger was.
//! A plain `open` of a FIFO for reading waits for a writer, forever if none
//! comes, and a stop hook that never answers is one its host gives up on
//! and lets the stop through. So every record majordomus reads (the task
//! record and its copy, the ledger, the policy, the forge observation, a
//! loop guard, a task's archive) is opened here: with `O_NONBLOCK` (a FIFO
//! then opens at once), the opened descriptor asked what it is, and
//! anything but a regular file refused before a byte is read, as a record
//! that cannot be read. Asking the descriptor, not the path, leaves no
//! moment to swap the path between the look and the open. The working
//! tree's own files are read the same way, by `majordomus_readings::file`.
//! The writes already refuse such a place (`confined.rs`).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use rustix::fs::{FileType, Mode, OFlags};

/// The file at `path` (a symbolic link is followed), opened for reading
/// when it is a regular file; anything else is an error of kind
/// `InvalidInput` saying what it is. A missing file is `NotFound`, as ever.
pub fn open(path: &Path) -> io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    let kind = FileType::from_raw_mode(rustix::fs::fstat(&fd)?.st_mode);
    if kind != FileType::RegularFile {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind_name(kind)),
        ));
    }
    // O_NONBLOCK means nothing to a regular file: reads from it are plain ones.
    Ok(File::from(fd))
}

/// The bytes of the regular file at `path` ([`open`]).
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = open(path)?;
    let mut bytes = Vec::with_capacity(file.metadata().map_or(0, |m| usize::try_from(m.len()).unwrap_or(0)));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The text of the regular file at `path` ([`open`]); not UTF-8 is `InvalidData`.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// What a file type is called in a sentence.
pub fn kind_name(kind: FileType) -> &'static str {
    match kind {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a directory",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Unknown => "of an unknown file type",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_refused_at_once_and_a_regular_file_is_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("ledger.jsonl");
        rustix::fs::mknodat(rustix::fs::CWD, &fifo, FileType::Fifo, Mode::from_raw_mode(0o600), 0).expect("mkfifo");
        let err = read(&fifo).expect_err("a FIFO is no record");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("FIFO"), "{err}");
        let err = read(dir.path()).expect_err("a directory is no record");
        assert!(err.to_string().contains("a directory"), "{err}");
        assert_eq!(read(&dir.path().join("none")).expect_err("missing").kind(), io::ErrorKind::NotFound);
        let file = dir.path().join("task.json");
        std::fs::write(&file, b"{}").expect("write");
        assert_eq!(read_to_string(&file).expect("read"), "{}");
    }
}
