//! The blob ids of large working-tree files, kept between commands by the
//! files' stamps.
//!
//! Every `check` reads the content of each file changed or untracked since
//! the start, to tell it from what the start found there: a dataset or a
//! disk image of gigabytes left untracked (inherited, or the task's) was
//! hashed again at every check, a second or more per gigabyte. A file of
//! at least [`LARGE`] bytes is hashed once for as long as its stamp holds
//! (inode, size, change and modification times: a write in place moves
//! the change time, which no command sets back), and the id is kept in
//! `.ai/local/state/large-files.cache`.
//!
//! The rules of the other caches (`branch_cache`, `id_cache`): a file
//! changed within [`local::SETTLED`](crate::refs::local) of the reading is
//! not kept (two writes within the file system's clock tick); the stamp is
//! taken before and after the hashing, and an id is kept only where both
//! are the same; a cache file that cannot be read or is damaged is
//! ignored whole; it is written atomically through the state directory's
//! confined writer, only where that directory exists. A cache can cost
//! time, never an answer.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use git2::Oid;
use majordomus_records::confined::Perm;
use majordomus_records::StatePaths;

use crate::file::FileError;
use crate::refs::local::{settled_ns, FileStamp};

/// From this size a file's id is kept.
pub const LARGE: u64 = 1 << 20;

/// The cache file's name in the state directory.
pub const FILE: &str = "large-files.cache";

/// Its first line.
const SCHEMA: &str = "majordomus.large-files-cache/1";

/// At most this many files are kept (the newest entries win).
const KEPT: usize = 256;

/// What is kept: each file's path, its stamp and id.
type Kept = BTreeMap<PathBuf, (FileStamp, Oid)>;

/// The cache of the working tree being read, loaded once per process.
static HELD: Mutex<Option<(PathBuf, Kept)>> = Mutex::new(None);

/// The blob id of the regular file at `path` in the working tree at `root`
/// ([`crate::file::blob_id`]), through what earlier commands kept where
/// the file is large.
pub fn blob_id(root: &Path, path: &Path) -> Result<Oid, FileError> {
    blob_id_at(root, path, SystemTime::now())
}

/// [`blob_id`], as read at `now`.
fn blob_id_at(root: &Path, path: &Path, now: SystemTime) -> Result<Oid, FileError> {
    let before = match std::fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() >= LARGE => FileStamp::of(&m),
        _ => return crate::file::blob_id(path),
    };
    let mut held = HELD.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if held.as_ref().map_or(true, |(r, _)| r != root) {
        *held = Some((root.to_path_buf(), load(root).unwrap_or_default()));
    }
    let Some((_, kept)) = held.as_mut() else { return crate::file::blob_id(path) };
    if let Some((stamp, id)) = kept.get(path) {
        if *stamp == before {
            return Ok(*id);
        }
    }
    let id = crate::file::blob_id(path)?;
    let after = std::fs::metadata(path).ok().map(|m| FileStamp::of(&m));
    if after == Some(before) && before.settled(settled_ns(now)) {
        kept.insert(path.to_path_buf(), (before, id));
        while kept.len() > KEPT {
            let oldest = kept.iter().min_by_key(|(_, (s, _))| s.ctime_ns).map(|(p, _)| p.clone());
            oldest.map(|p| kept.remove(&p));
        }
        store(root, kept);
    }
    Ok(id)
}

/// What the last command kept; `None` where the file is missing,
/// unreadable or damaged anywhere.
fn load(root: &Path) -> Option<Kept> {
    let file = majordomus_records::regular::open(&StatePaths::new(root).state_dir().join(FILE)).ok()?;
    let mut text = String::new();
    file.take(1 << 20).read_to_string(&mut text).ok()?;
    let mut lines = text.lines();
    if lines.next()? != SCHEMA {
        return None;
    }
    let mut kept = Kept::new();
    for line in lines {
        let f: Vec<&str> = line.split(' ').collect();
        let [ino, size, mtime, ctime, id, path] = f[..] else { return None };
        let stamp = FileStamp {
            ino: ino.parse().ok()?,
            size: size.parse().ok()?,
            mtime_ns: mtime.parse().ok()?,
            ctime_ns: ctime.parse().ok()?,
        };
        let path = PathBuf::from(std::ffi::OsString::from_vec(unhex(path)?));
        if !path.is_absolute() {
            return None;
        }
        kept.insert(path, (stamp, Oid::from_str(id).ok()?));
    }
    Some(kept)
}

/// Writes what is kept (paths as hex: a name may hold any byte).
fn store(root: &Path, kept: &Kept) {
    let mut text = format!("{SCHEMA}\n");
    for (path, (s, id)) in kept {
        let path: String = path.as_os_str().as_bytes().iter().map(|b| format!("{b:02x}")).collect();
        text.push_str(&format!("{} {} {} {} {id} {path}\n", s.ino, s.size, s.mtime_ns, s.ctime_ns));
    }
    if let Ok(dir) = StatePaths::new(root).open_state(false) {
        let _ = dir.replace_derived(FILE, text.as_bytes(), Perm::Private);
    }
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_files_id_is_kept_while_its_stamp_holds_and_read_again_once_it_moves() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        std::fs::create_dir_all(root.join(".ai/local/state")).expect("state dir");
        let file = root.join("data.bin");
        std::fs::write(&file, vec![7u8; LARGE as usize]).expect("write");
        // Read as if later: settled past the rule's two seconds.
        let later = SystemTime::now() + std::time::Duration::from_secs(10);
        let truth = crate::file::blob_id(&file).expect("hash");
        assert_eq!(blob_id_at(&root, &file, later).expect("hash"), truth);
        let kept = load(&root).expect("kept");
        assert_eq!(kept.get(&file).map(|(_, id)| *id), Some(truth));
        // A planted id is taken while the stamp holds: the file was not read.
        let planted = Oid::from_str("0123456789012345678901234567890123456789").expect("id");
        let stamp = FileStamp::of(&std::fs::metadata(&file).expect("meta"));
        store(&root, &[(file.clone(), (stamp, planted))].into_iter().collect());
        *HELD.lock().expect("lock") = None;
        assert_eq!(blob_id_at(&root, &file, later).expect("kept"), planted);
        // Written in place, same size: the stamp moves, the file is read.
        std::fs::write(&file, vec![8u8; LARGE as usize]).expect("write");
        let now = crate::file::blob_id(&file).expect("hash");
        assert_eq!(blob_id_at(&root, &file, later).expect("hash"), now);
        assert_ne!(now, planted);
        // A small file is never kept.
        let small = root.join("small.txt");
        std::fs::write(&small, "x\n").expect("write");
        assert_eq!(blob_id_at(&root, &small, later).expect("hash"), crate::file::blob_id(&small).expect("hash"));
        assert!(!load(&root).expect("kept").contains_key(&small));
    }

    #[test]
    fn a_damaged_cache_is_ignored_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join(".ai/local/state")).expect("state dir");
        for text in ["nonsense\n", &format!("{SCHEMA}\n1 2 3\n"), &format!("{SCHEMA}\n1 2 3 4 nothex 2f61\n")] {
            std::fs::write(root.join(".ai/local/state").join(FILE), text).expect("write");
            assert!(load(root).is_none(), "{text:?}");
        }
    }
}
