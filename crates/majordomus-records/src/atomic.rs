//! Every file majordomus writes is written whole or not at all: a temporary
//! file in the same directory, flushed, then renamed over the target.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically, creating the parent directories.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_via_temp(path, bytes, Mode::Private, Place::Replace)
}

/// [`write_atomic`] for a file people own and edit (an agent's settings):
/// the file it replaces keeps its mode, and a new one is created readable
/// by all (0644, less the umask), not private like majordomus's state.
pub fn write_atomic_keeping_mode(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let kept = match std::fs::metadata(path) {
        Ok(m) => Some(m.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    write_via_temp(path, bytes, Mode::Shared(kept), Place::Replace)
}

/// Writes `bytes` to `path` atomically, but only if `path` does not exist
/// yet: of two writers racing to create it, one wins and the other gets
/// [`io::ErrorKind::AlreadyExists`], and the file is never replaced.
pub fn create_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_via_temp(path, bytes, Mode::Private, Place::CreateOnly)
}

/// The permissions the written file ends with.
enum Mode {
    /// The temporary file's own (0600): majordomus's state.
    Private,
    /// Those given (the file replaced), else 0644 less the umask.
    Shared(Option<std::fs::Permissions>),
}

/// Whether the write may replace a file already at the path.
enum Place {
    Replace,
    CreateOnly,
}

/// The one way majordomus writes a file: a temporary file beside the
/// target, written, flushed to disk, then renamed into place.
fn write_via_temp(path: &Path, bytes: &[u8], mode: Mode, place: Place) -> io::Result<()> {
    let dir = path.parent().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no parent"))?;
    std::fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".majordomus-").suffix(".tmp");
    #[cfg(unix)]
    if let Mode::Shared(_) = mode {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    if let Mode::Shared(Some(permissions)) = mode {
        tmp.as_file().set_permissions(permissions)?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    match place {
        Place::Replace => tmp.persist(path).map_err(|e| e.error)?,
        Place::CreateOnly => tmp.persist_noclobber(path).map_err(|e| e.error)?,
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_create_never_replaces_and_of_many_racing_exactly_one_wins() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("task.json");
        let wins: Vec<bool> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|i| {
                    let target = &target;
                    s.spawn(move || create_atomic(target, format!("writer {i}").as_bytes()))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h.join().expect("thread") {
                    Ok(()) => true,
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => false,
                    Err(e) => panic!("unexpected error: {e}"),
                })
                .collect()
        });
        assert_eq!(wins.iter().filter(|w| **w).count(), 1, "{wins:?}");
        let kept = std::fs::read_to_string(&target).expect("read");
        assert!(kept.starts_with("writer "), "{kept}");
        let err = create_atomic(&target, b"late").expect_err("exists");
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&target).expect("read"), kept, "a refused create changed the file");
        let names: Vec<_> =
            std::fs::read_dir(dir.path()).expect("list").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("task.json")], "a temporary was left behind");
    }

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
