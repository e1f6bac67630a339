//! Every file majordomus writes is written whole or not at all: a temporary
//! file in the same directory, flushed, then renamed over the target.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically, creating the parent directories.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no parent"))?;
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new().prefix(".majordomus-").suffix(".tmp").tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_whole_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("a/b/state.json");
        write_atomic(&target, b"first, longer content").expect("write");
        write_atomic(&target, b"second").expect("write");
        assert_eq!(std::fs::read(&target).expect("read"), b"second");
        let names: Vec<_> = std::fs::read_dir(target.parent().expect("parent"))
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("state.json")]);
    }
}
