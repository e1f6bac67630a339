//! The files whose content the start read, kept by their stat data: so
//! that a task started on a fresh checkout does not read every file of it
//! again at every check.
//!
//! A task's reading compares by content every entry whose file time is not
//! older, to the second, than the index file was at the start (`since.rs`:
//! git may have refreshed its stat data since, and stat data refreshed
//! since does not vouch for what the start read). After a `git clone`, a
//! `git checkout` or a `git reset --hard` the files and the index are
//! written in the same second, so a task started there read all of them by
//! content at every check, for as long as it lasted, where git reads them
//! only until the index is written again (on cargo's 3,072 files, 844 M
//! instructions a check, seven in ten of them hashing; `git status` 25 M).
//!
//! The start read those files already: each was racily clean, its content
//! hashed and found to be its index entry's blob. What it found is kept as
//! a stamp of the path, that blob and the file's stat data (mode, inode,
//! size, modification and change times to the nanosecond), and a later
//! reading takes a file whose stamp is the same for the blob the index
//! holds now as that blob, without reading it. The change time is what
//! makes this sound: every write to a file, every `chmod` and `touch` sets
//! it to the time of the change, and nothing short of the system clock
//! sets it back, so a file whose change time is the one the start saw has
//! not been changed since. A change made while the start was reading could
//! still fall in the same clock tick as the time it saw, so only files
//! whose change time is older than the reading's beginning by
//! [`MARGIN_NS`] are stamped (by two whole seconds where the filesystem
//! keeps no nanoseconds). A stamp is a 64-bit FNV-1a digest: a file made to
//! match another's by chance would need its times chosen among 2^64.
//!
//! A file whose content an eol or ident conversion could change (it holds
//! a carriage return or an `$Id`: CRLF text, and most binary files) is
//! judged by libgit2 under the conversions in force, not by its raw
//! content (`stat.rs`). Its stamp is kept apart ([`Domain::Converted`]),
//! for libgit2's answer that it is clean, and vouches only while the
//! working tree's attributes files are what they were at the start
//! ([`attributes`]: their paths, index blobs and content): the other
//! conversions (`core.autocrlf`, `core.eol`, the attributes files outside
//! the working tree) are the start's or the reading is not taken at all
//! (`since.rs`). An attributes file an ignore rule hides is not among
//! them (the walk does not list it): a conversion it changes could make
//! git count a file whose content did not change, never hide one that did
//! (a file written since the start has a new change time, and is read).

use std::os::unix::ffi::OsStrExt;

use crate::index_file::Entry;

/// How much older than the reading's beginning a file's change time must
/// be for its stamp to be kept: many clock ticks (the kernel stamps change
/// times from a clock that moves by ticks of 1 to 10 ms).
pub(super) const MARGIN_NS: i128 = 100_000_000;

/// The most stamps a start keeps (16 bytes of text each in the task
/// record); past it, none is kept and the files are read as before.
pub use majordomus_records::reading_at_start::MAX_STAMPS;

/// What a stamp vouches for: a file whose raw content is its entry's blob,
/// or one libgit2 found clean through the conversions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Domain {
    Raw,
    Converted,
}

/// The stamp of the file of entry `e` at `path` as `st` finds it, when its
/// change time is old enough before `read_from_ns` (the reading's
/// beginning, in nanoseconds since the epoch) to be kept; `None` otherwise.
pub(super) fn keepable(
    path: &[u8],
    e: &Entry,
    st: &rustix::fs::Stat,
    read_from_ns: i128,
    domain: Domain,
) -> Option<u64> {
    // The `stat` field types differ between platforms.
    #[allow(clippy::unnecessary_cast)]
    let (secs, nsecs) = (st.st_ctime as i64, st.st_ctime_nsec as i64);
    let changed = i128::from(secs) * 1_000_000_000 + i128::from(nsecs);
    let old_enough = match nsecs {
        // A filesystem that keeps no nanoseconds (or whole seconds at best).
        0 => changed + 2_000_000_000 <= read_from_ns,
        _ => changed + MARGIN_NS <= read_from_ns,
    };
    old_enough.then(|| stamp(path, e, st, domain))
}

/// The stamp of the file of entry `e` at `path` as `st` finds it.
#[allow(clippy::unnecessary_cast)]
pub(super) fn stamp(path: &[u8], e: &Entry, st: &rustix::fs::Stat, domain: Domain) -> u64 {
    let mut h = Fnv::new();
    h.write(path);
    h.write(&[0]);
    h.write(e.id.as_bytes());
    h.write(&(st.st_mode as u32).to_le_bytes());
    h.write(&(st.st_ino as u64).to_le_bytes());
    h.write(&(st.st_size as i64).to_le_bytes());
    h.write(&(st.st_mtime as i64).to_le_bytes());
    h.write(&(st.st_mtime_nsec as i64).to_le_bytes());
    h.write(&(st.st_ctime as i64).to_le_bytes());
    h.write(&(st.st_ctime_nsec as i64).to_le_bytes());
    if domain == Domain::Converted {
        h.write(b"converted");
    }
    h.0
}

/// The digest of the working tree's attributes files: `files` (each path
/// with its index blob, `None` when untracked), sorted by path, with their
/// content under `root` (or that it cannot be read).
pub(super) fn attributes(root: &std::path::Path, files: &[(&[u8], Option<git2::Oid>)]) -> u64 {
    let mut h = Fnv::new();
    for (path, id) in files {
        h.write(path);
        h.write(&[0]);
        match id {
            Some(id) => h.write(id.as_bytes()),
            None => h.write(b"untracked"),
        }
        match crate::file::read(&root.join(std::ffi::OsStr::from_bytes(path))) {
            Ok(bytes) => {
                h.write(&(bytes.len() as u64).to_le_bytes());
                h.write(&bytes);
            }
            Err(_) => h.write(b"\0unread"),
        }
    }
    h.0
}

/// 64-bit FNV-1a, written out so that a stamp is the same from one build
/// (and one version of a dependency) to the next.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The stamps as the task record keeps them: sorted, each as 16 lowercase
/// hex digits, one after the other. `None` when there are none, or more
/// than [`MAX_STAMPS`].
pub(super) fn encode(stamps: &[u64]) -> Option<String> {
    if stamps.is_empty() || stamps.len() > MAX_STAMPS {
        return None;
    }
    let mut sorted = stamps.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = String::with_capacity(sorted.len() * 16);
    for s in sorted {
        out.push_str(&format!("{s:016x}"));
    }
    Some(out)
}

/// The attributes files' digest as the task record keeps it.
pub(super) fn encode_one(digest: u64) -> String {
    format!("{digest:016x}")
}

/// The stamps of a record, sorted; `None` when the text is not what
/// [`encode`] writes (then no stamp vouches for anything).
pub(super) fn decode(text: &str) -> Option<Vec<u64>> {
    let bytes = text.as_bytes();
    if bytes.len() % 16 != 0 || bytes.len() / 16 > MAX_STAMPS {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 16);
    for chunk in bytes.chunks(16) {
        let s = std::str::from_utf8(chunk).ok()?;
        if !s.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)) {
            return None;
        }
        out.push(u64::from_str_radix(s, 16).ok()?);
    }
    out.windows(2).all(|w| w[0] < w[1]).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_round_trip_sorted_and_a_damaged_text_vouches_for_nothing() {
        let text = encode(&[3, 1, 0xffff_ffff_ffff_ffff, 3]).expect("some");
        assert_eq!(text, "00000000000000010000000000000003ffffffffffffffff");
        assert_eq!(decode(&text), Some(vec![1, 3, u64::MAX]));
        assert_eq!(decode("0000000000000003000000000000000"), None, "cut short");
        assert_eq!(decode("00000000000000030000000000000001"), None, "not sorted");
        assert_eq!(decode("000000000000000G"), None, "not hex");
        assert_eq!(decode("+000000000000001"), None, "a sign is not a digit");
        assert_eq!(encode(&[]), None);
    }

    #[test]
    fn fnv_1a_is_the_published_function() {
        let mut h = Fnv::new();
        h.write(b"a");
        assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
    }
}
