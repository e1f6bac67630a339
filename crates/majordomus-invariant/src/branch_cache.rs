//! The local branches' tips, the remote-tracking refs and the newest lines
//! of the upstreams' reflogs, kept between checks.
//!
//! `check` needs every local branch's tip and every remote-tracking ref at
//! every stop; reading each ref file costs the same whether or not it
//! changed, and a repository can hold thousands.
//! [`majordomus_readings::refs::local`] reads only the files whose stamp
//! (inode, size, change and modification times) differs from the one kept
//! for them, and says what to keep: this module keeps it.
//!
//! Kept in `.ai/local/state/branches.cache` (and `remotes.cache` for
//! `refs/remotes/`; a file naming a ref outside its namespace is
//! damaged; `upstream-logs.cache` for the reflogs), written atomically through
//! the state directory's confined writer, only when what is kept changed,
//! and only where the state directory already exists. As the integration
//! cache ([`crate::family::integration::cache`]): a file that cannot be
//! read or is damaged is ignored as a whole (every ref file is read), so
//! the cache can cost time, never an answer; a lost one is rebuilt.

use std::collections::BTreeMap;
use std::io::Read as _;

use std::path::Path;

use majordomus_readings::refs::local::{self, FileStamp, Known, KnownFile, Tips};
use majordomus_readings::refs::{KnownLogs, Start, UpstreamsRewritten};
use majordomus_readings::{Reading, Repo};
use majordomus_records::confined::Perm;
use majordomus_records::StatePaths;

use crate::deadline::Deadline;

/// The cache file's name in the state directory.
pub const FILE: &str = "branches.cache";

/// Which refs a cache file keeps: its name, and the namespace every ref it
/// names is under (a name outside it makes the file damaged).
#[derive(Debug, Clone, Copy)]
struct Namespace {
    file: &'static str,
    under: &'static str,
}

/// The local branches.
const BRANCHES: Namespace = Namespace { file: FILE, under: "refs/heads/" };

/// The remote-tracking refs ([`remote_refs`]).
const REMOTES: Namespace = Namespace { file: "remotes.cache", under: "refs/remotes/" };

/// The file's first line. The rest is in binary, numbers little-endian:
/// how many ref files are kept (4 bytes), then one record per file: the
/// inode, the size and the two times (ns) as 8-byte numbers, then a byte
/// saying what the file held (1: an id, its 20 bytes follow; 0: a
/// symbolic ref), then the name's length (2 bytes) and the name; then,
/// where it is known, the order of the names ([`Known::order`]: a 4-byte
/// position per file). Not text: at ten thousand branches, splitting lines
/// and decoding four numbers and an id on each took 16 M instructions, on
/// the thread whose walk is the longest reading of a check
/// (bench/README.md); not JSON: that was a tenth of `check`.
const SCHEMA: &str = "majordomus.branches-cache/4";

/// The largest file read as a cache.
const MAX_BYTES: u64 = 64 << 20;

/// The local branches' tips ([`local::branch_tips`]) under `common_dir`,
/// through what the last check kept, keeping what it read. Needs no
/// repository handle: it runs beside the other readings.
pub fn tips(common_dir: &Path, paths: &StatePaths) -> Reading<Tips> {
    let mut known = load(paths, BRANCHES).unwrap_or_default();
    let tips = local::branch_tips(common_dir, &mut known)?;
    if tips.changed {
        store(paths, BRANCHES, &known);
    }
    Ok(tips)
}

/// Every direct ref under `refs/remotes/` and its commit
/// ([`local::remote_tips`]), through what the last check kept in
/// `.ai/local/state/remotes.cache`, by the same rules: at a thousand
/// remote-tracking refs, a stat each rather than an open, a stat, a read
/// and a close.
pub fn remote_refs(common_dir: &Path, paths: &StatePaths) -> Reading<Remotes> {
    let mut known = load(paths, REMOTES).unwrap_or_default();
    let tips = local::remote_tips(common_dir, &mut known)?;
    if tips.changed {
        store(paths, REMOTES, &known);
    }
    Ok(Remotes {
        refs: tips.tips.into_iter().map(|(name, id)| (name, id.to_string())).collect(),
        newest_mtime_ns: tips.newest_mtime_ns,
    })
}

/// The cache file of the upstreams' reflogs ([`upstreams_rewritten`]).
const UPSTREAM_LOGS: &str = "upstream-logs.cache";

/// Which of the upstreams `start` recorded were rewritten since
/// ([`UpstreamsRewritten::read`]), through what the last check kept in
/// `.ai/local/state/upstream-logs.cache`: a stat of each reflog rather
/// than an open, a stat, a read and a close.
pub fn upstreams_rewritten<'a>(common_dir: &Path, paths: &StatePaths, start: Start<'a>) -> UpstreamsRewritten<'a> {
    let mut known = text_of(paths, UPSTREAM_LOGS).and_then(|t| KnownLogs::from_text(&t)).unwrap_or_default();
    let (read, changed) = UpstreamsRewritten::read(common_dir, start, &mut known, std::time::SystemTime::now());
    if changed {
        if let (Ok(dir), Some(text)) = (paths.open_state(false), known.to_text()) {
            let _ = dir.replace_derived(UPSTREAM_LOGS, text.as_bytes(), Perm::Private);
        }
    }
    read
}

/// What [`remote_refs`] read.
#[derive(Debug)]
pub struct Remotes {
    /// Each remote-tracking ref by its full name, and its commit.
    pub refs: BTreeMap<String, String>,
    /// The newest modification time under `refs/remotes`, as the walk
    /// stat'ed it, for the fingerprint ([`local::Tips::newest_mtime_ns`]).
    pub newest_mtime_ns: Option<u64>,
}

/// The branches' tips ([`tips`]) read on a thread of their own, begun
/// before the rest of a check (the task record's parse, the policy's),
/// since it needs neither: at thousands of branches the walk of their ref
/// files is the longest reading. Dropped before it is joined, it waits for
/// its thread, so the cache it may be writing is never left half placed.
#[derive(Debug)]
pub struct Reader {
    thread: Option<std::thread::JoinHandle<Reading<Tips>>>,
    /// What to read on the caller's thread where none could be started.
    here: Option<(std::path::PathBuf, StatePaths, Deadline)>,
}

/// Begins reading the branches' tips of `repo` ([`Reader`]).
pub fn begin(repo: &Repo, paths: &StatePaths, deadline: Deadline) -> Reader {
    let (common_dir, owned) = (repo.common_dir().to_path_buf(), paths.clone());
    let read = move || deadline.read(|| tips(&common_dir, &owned));
    match std::thread::Builder::new().name("branches".into()).spawn(read) {
        Ok(thread) => Reader { thread: Some(thread), here: None },
        Err(_) => Reader { thread: None, here: Some((repo.common_dir().to_path_buf(), paths.clone(), deadline)) },
    }
}

impl Reader {
    /// The tips, once read.
    pub fn join(mut self) -> Reading<Tips> {
        if let Some(thread) = self.thread.take() {
            return match thread.join() {
                Ok(tips) => tips,
                Err(panic) => std::panic::resume_unwind(panic),
            };
        }
        match self.here.take() {
            Some((common_dir, paths, deadline)) => deadline.read(|| tips(&common_dir, &paths)),
            None => unreachable!("a reader is joined once"),
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the last check kept; `None` when the file is missing, unreadable
/// or damaged anywhere.
fn load(paths: &StatePaths, ns: Namespace) -> Option<Known> {
    decode(&bytes_of(paths, ns.file)?, ns)
}

/// The bytes of the cache file `name`; `None` when it is missing,
/// unreadable or larger than [`MAX_BYTES`].
fn bytes_of(paths: &StatePaths, name: &str) -> Option<Vec<u8>> {
    let file = majordomus_records::regular::open(&paths.state_dir().join(name)).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_BYTES).then_some(bytes)
}

/// The text of the cache file `name`; `None` when it is missing,
/// unreadable, not UTF-8 or larger than [`MAX_BYTES`].
fn text_of(paths: &StatePaths, name: &str) -> Option<String> {
    String::from_utf8(bytes_of(paths, name)?).ok()
}

/// Each record's fixed part: four numbers, the kind byte.
const FIXED: usize = 4 * 8 + 1;

fn decode(bytes: &[u8], ns: Namespace) -> Option<Known> {
    let rest = bytes.strip_prefix(SCHEMA.as_bytes())?.strip_prefix(b"\n")?;
    let count = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
    let mut rest = &rest[4..];
    let mut known = Known::default();
    known.reserve(count.min(rest.len() / FIXED), rest.len() / 3);
    let number = |b: &[u8], i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("eight bytes"));
    for _ in 0..count {
        let fixed = rest.get(..FIXED)?;
        let stamp = FileStamp {
            ino: number(fixed, 0),
            size: number(fixed, 1),
            mtime_ns: i128::from(number(fixed, 2)),
            ctime_ns: i128::from(number(fixed, 3)),
        };
        rest = &rest[FIXED..];
        let id = match fixed[FIXED - 1] {
            0 => None,
            1 => {
                let raw = rest.get(..20)?;
                rest = &rest[20..];
                Some(git2::Oid::from_bytes(raw).ok()?)
            }
            _ => return None,
        };
        let len = usize::from(u16::from_le_bytes(rest.get(..2)?.try_into().ok()?));
        let name = std::str::from_utf8(rest.get(2..2 + len)?).ok()?;
        rest = &rest[2 + len..];
        // A name git would refuse is never looked up: the reading asks only
        // for the names it lists and takes for branches.
        if !name.starts_with(ns.under) || name.contains(' ') {
            return None;
        }
        known.push(name, KnownFile::new(stamp, id));
    }
    match rest.len() {
        0 => {}
        // An order that is not the names' is damage, as anything else.
        n if n == 4 * count => {
            let order = rest.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            if !known.set_order(order) {
                return None;
            }
        }
        _ => return None,
    }
    Some(known)
}

/// The cache's bytes: [`SCHEMA`], then a record per file in the order the
/// walk met them (see [`Known`]); `None` where one cannot be written (a
/// time before the epoch, a name longer than 65,535 bytes, an id not of 20
/// bytes): nothing is kept then.
fn encode(known: &Known) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(SCHEMA.len() + 5 + known.len() * 94);
    bytes.extend_from_slice(SCHEMA.as_bytes());
    bytes.push(b'\n');
    bytes.extend_from_slice(&u32::try_from(known.len()).ok()?.to_le_bytes());
    for (name, k) in known.iter() {
        let (mtime, ctime) = (u64::try_from(k.stamp.mtime_ns).ok()?, u64::try_from(k.stamp.ctime_ns).ok()?);
        for n in [k.stamp.ino, k.stamp.size, mtime, ctime] {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
        match k.id {
            None => bytes.push(0),
            Some(id) if id.as_bytes().len() == 20 => {
                bytes.push(1);
                bytes.extend_from_slice(id.as_bytes());
            }
            Some(_) => return None,
        }
        bytes.extend_from_slice(&u16::try_from(name.len()).ok()?.to_le_bytes());
        bytes.extend_from_slice(name.as_bytes());
    }
    for i in known.order() {
        bytes.extend_from_slice(&i.to_le_bytes());
    }
    Some(bytes)
}

fn store(paths: &StatePaths, ns: Namespace, known: &Known) {
    let Ok(dir) = paths.open_state(false) else { return };
    if let Some(bytes) = encode(known) {
        let _ = dir.replace_derived(ns.file, &bytes, Perm::Private);
    }
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    use super::*;

    #[test]
    fn a_damaged_or_foreign_cache_is_ignored_and_every_branch_read() {
        let t = TestRepo::with_commit();
        t.git(&["branch", "side"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        std::fs::create_dir_all(paths.state_dir()).expect("state dir");
        let expected = local::branch_tips(repo.common_dir(), &mut Known::default()).expect("tips").tips;
        let id = t.head();
        let good = record(1, Some(&id), "refs/heads/side");
        let header = format!("{SCHEMA}\n").into_bytes();
        let mut bad_kind = good.clone();
        bad_kind[4 + FIXED - 1] = 2;
        for damaged in [
            b"{".to_vec(),
            br#"{"schema":"majordomus.branches-cache/1","known":{"files":{}}}"#.to_vec(),
            format!("majordomus.branches-cache/2\n1 41 0 0 {id} refs/heads/side\n").into_bytes(),
            [header.as_slice(), &record(1, Some(&id), "refs/remotes/x")].concat(),
            [header.as_slice(), &record(1, Some(&id), "refs/heads/a side")].concat(),
            [header.as_slice(), &good[..good.len() - 1]].concat(),
            [header.as_slice(), &good[..FIXED + 7]].concat(),
            [header.as_slice(), &bad_kind].concat(),
            [header.as_slice(), &good, &[0]].concat(),
            [b"majordomus.branches-cache/0\n".as_slice(), &good].concat(),
            [SCHEMA.as_bytes(), &good].concat(),
        ] {
            std::fs::write(paths.state_dir().join(FILE), &damaged).expect("write");
            let shown = String::from_utf8_lossy(&damaged).into_owned();
            assert!(decode(&damaged, BRANCHES).is_none(), "{shown}");
            assert_eq!(tips(repo.common_dir(), &paths).expect("read").tips, expected, "{shown}");
        }
        assert!(decode(&[header.as_slice(), &good].concat(), BRANCHES).is_some(), "the record itself is whole");
    }

    /// One record of the cache, as [`encode`] writes it (`id`: hex).
    fn record(ino: u64, id: Option<&str>, name: &str) -> Vec<u8> {
        let mut known = Known::default();
        let stamp = FileStamp { ino, size: 41, mtime_ns: 0, ctime_ns: 0 };
        known.push(name, KnownFile::new(stamp, id.map(|id| git2::Oid::from_str(id).expect("id"))));
        let bytes = encode(&known).expect("encoded");
        bytes[SCHEMA.len() + 1..].to_vec()
    }

    #[test]
    fn the_remote_tracking_refs_read_through_what_is_kept_are_the_refs_there() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.git(&["push", "-q", "origin", "HEAD:review"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let paths = StatePaths::new(repo.root());
        std::fs::create_dir_all(paths.state_dir()).expect("state dir");
        let direct = || majordomus_readings::refs::remote_refs(&repo).expect("read");
        assert_eq!(remote_refs(repo.common_dir(), &paths).expect("read").refs, direct());
        // Kept as settled (read a minute on), then one of them moves.
        let mut known = Known::default();
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        local::read_under_at(repo.common_dir(), "refs/remotes", &mut known, later).expect("read");
        assert_eq!(known.len(), 3, "main, review and the symbolic HEAD: {known:?}");
        store(&paths, REMOTES, &known);
        t.write("more.txt", "more\n");
        t.commit_all("more");
        t.git(&["push", "-q", "origin", "HEAD:review"]);
        let now = remote_refs(repo.common_dir(), &paths).expect("read").refs;
        assert_eq!(now.get("refs/remotes/origin/review").map(String::as_str), Some(t.head().as_str()));
        assert_eq!(now, direct());
        // A branch's record is no remote-tracking ref: the file is damaged.
        let id = t.head();
        let branch = [format!("{SCHEMA}\n").as_bytes(), &record(1, Some(&id), "refs/heads/main")].concat();
        assert!(decode(&branch, REMOTES).is_none());
        assert!(decode(&branch, BRANCHES).is_some());
    }

    #[test]
    fn what_is_kept_reads_back_as_it_was_written() {
        let t = TestRepo::with_commit();
        t.git(&["branch", "side"]);
        t.git(&["symbolic-ref", "refs/heads/sym", "refs/heads/main"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let mut known = Known::default();
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        local::branch_tips_at(repo.common_dir(), &mut known, later).expect("read");
        assert_eq!(known.len(), 3, "{known:?}");
        assert_eq!(known.order().len(), 3, "the names' order is known once read: {known:?}");
        assert_eq!(decode(&encode(&known).expect("encoded"), BRANCHES), Some(known));
    }

    /// The order kept hands the branches on sorted without sorting them:
    /// one that is not the names' (out of order, a position twice or
    /// missing, too short) makes the file damaged, never a reading.
    #[test]
    fn an_order_that_is_not_the_names_is_damage() {
        let t = TestRepo::with_commit();
        for b in ["b", "a", "c/d"] {
            t.git(&["branch", b]);
        }
        let repo = majordomus_readings::open(t.path()).expect("open");
        let mut known = Known::default();
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        local::branch_tips_at(repo.common_dir(), &mut known, later).expect("read");
        let names: Vec<&str> = known.order().iter().map(|&i| known.iter().nth(i as usize).expect("file").0).collect();
        assert_eq!(names, ["refs/heads/a", "refs/heads/b", "refs/heads/c/d", "refs/heads/main"]);
        let whole = encode(&known).expect("encoded");
        let at = whole.len() - 4 * known.len();
        let with_order = |order: &[u32]| {
            let mut bytes = whole[..at].to_vec();
            bytes.extend(order.iter().flat_map(|i| i.to_le_bytes()));
            bytes
        };
        let good = known.order().to_vec();
        assert_eq!(decode(&with_order(&good), BRANCHES).as_ref(), Some(&known));
        let mut swapped = good.clone();
        swapped.swap(0, 1);
        let mut twice = good.clone();
        twice[0] = twice[1];
        let too_far = [good[..3].to_vec(), vec![4]].concat();
        for bad in [swapped, twice, too_far, good[..3].to_vec()] {
            assert!(decode(&with_order(&bad), BRANCHES).is_none(), "{bad:?}");
        }
        assert_eq!(decode(&whole[..at], BRANCHES).map(|k| k.order().len()), Some(0), "a file without it is read");
    }
}
