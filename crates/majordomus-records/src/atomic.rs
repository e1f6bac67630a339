//! Every file majordomus writes is written whole or not at all, and only
//! below the directory it belongs to: a temporary file in the verified
//! directory, flushed, then renamed over the target within it (see
//! [`crate::confined`], which reaches the directory without following a
//! symbolic link).
//!
//! Each function takes the trusted `base` (the working tree's root or the
//! common git directory) and a `path` below it.

use std::path::Path;

use crate::confined::{open_parent, Perm, PlaceError};

/// Writes `bytes` to `path` (below `base`) atomically, creating the
/// directories on the way; the file is private (0600).
pub fn write_atomic(base: &Path, path: &Path, bytes: &[u8]) -> Result<(), PlaceError> {
    let (dir, name) = open_parent(base, path, true)?;
    dir.replace(&name, bytes, Perm::Private)
}

/// [`write_atomic`] for a file people own and edit (an agent's settings, a
/// git hook's neighbours): the file it replaces keeps its mode, and a new
/// one is created readable by all (0644, less the umask).
pub fn write_atomic_keeping_mode(base: &Path, path: &Path, bytes: &[u8]) -> Result<(), PlaceError> {
    let (dir, name) = open_parent(base, path, true)?;
    let perm = dir.mode(&name)?.map_or(Perm::Shared, Perm::Exactly);
    dir.replace(&name, bytes, perm)
}

/// Writes `bytes` to `path` atomically, but only if `path` does not exist
/// yet: `Ok(false)`, and nothing written, when it does. Of two writers
/// racing to create it, one wins and the file is never replaced.
pub fn create_atomic(base: &Path, path: &Path, bytes: &[u8]) -> Result<bool, PlaceError> {
    let (dir, name) = open_parent(base, path, true)?;
    dir.create(&name, bytes, Perm::Private)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_below_its_base_lands_and_one_outside_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("a/b/state.json");
        write_atomic(dir.path(), &target, b"first").expect("write");
        assert!(!create_atomic(dir.path(), &target, b"second").expect("create"));
        write_atomic_keeping_mode(dir.path(), &target, b"third").expect("write");
        assert_eq!(std::fs::read(&target).expect("read"), b"third");
        let elsewhere = tempfile::tempdir().expect("tempdir");
        let err = write_atomic(dir.path(), &elsewhere.path().join("x"), b"no").expect_err("outside");
        assert!(err.is_refusal(), "{err}");
        assert!(!elsewhere.path().join("x").exists());
    }
}
