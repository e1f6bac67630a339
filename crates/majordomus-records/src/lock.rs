//! The one exclusive lock majordomus takes: `flock` on a lock file beside
//! what it guards (`ledger.lock`, `carry.lock`), waited for a bounded time.
//!
//! The lock is the kernel's: it ends with the process holding it, so a
//! writer that crashed leaves nothing to clear by hand, and the lock file
//! itself is kept (removing a file others may be waiting on would let two
//! holders in). The file is opened like every file majordomus writes,
//! without following a symbolic link ([`crate::confined`]): a link planted
//! at `ledger.lock` would otherwise create a file wherever it points.

use std::fs::File;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustix::fs::FlockOperation;
use rustix::io::Errno;

use crate::confined::{Dir, PlaceError};

/// An exclusive lock while this process holds it; dropping it (closing the
/// file) releases it.
#[derive(Debug)]
pub struct Held {
    _file: File,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(transparent)]
    Place(#[from] PlaceError),
    #[error(
        "another majordomus command held the lock {} for over {} s; try again once it is done (the lock ends with the process that holds it: never remove the file)",
        path.display(),
        waited.as_secs_f32()
    )]
    Busy { path: PathBuf, waited: Duration },
    #[error("cannot lock {}", path.display())]
    Lock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Takes the exclusive lock on `name` in `dir` (creating the file),
/// waiting up to `wait` for another holder to let it go.
pub fn exclusive(dir: &Dir, name: &str, wait: Duration) -> Result<Held, LockError> {
    let file = dir.open_rw(name)?;
    let started = Instant::now();
    loop {
        match rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(Held { _file: file }),
            Err(Errno::WOULDBLOCK | Errno::INTR) if started.elapsed() < wait => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(Errno::WOULDBLOCK) => return Err(LockError::Busy { path: dir.path().join(name), waited: wait }),
            Err(e) => return Err(LockError::Lock { path: dir.path().join(name), source: e.into() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_makes_another_taker_wait_then_fail_naming_the_lock() {
        let base = tempfile::tempdir().expect("tempdir");
        let dir = crate::confined::open_dir(base.path(), std::path::Path::new("state"), true).expect("dir");
        let held = exclusive(&dir, "x.lock", Duration::from_secs(1)).expect("first");
        let err = exclusive(&dir, "x.lock", Duration::from_millis(30)).expect_err("second while held");
        assert!(matches!(err, LockError::Busy { .. }) && err.to_string().contains("x.lock"), "{err}");
        drop(held);
        exclusive(&dir, "x.lock", Duration::from_millis(30)).expect("free again once released");
    }
}
