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
use std::fmt::Write as _;
use std::io::Read as _;

use std::path::Path;

use majordomus_readings::refs::local::{self, parse_id, FileStamp, Known, KnownFile, Tips};
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

/// The file's first line. The rest is one line per ref file kept:
/// `<inode> <size> <mtime ns> <ctime ns> <id, or - for a symbolic ref> <name>`
/// (a ref's name holds no space and no line break). Lines, not JSON: at
/// ten thousand branches the JSON encoding was a tenth of `check`.
const SCHEMA: &str = "majordomus.branches-cache/2";

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
    decode(&text_of(paths, ns.file)?, ns)
}

/// The text of the cache file `name`; `None` when it is missing,
/// unreadable, not UTF-8 or larger than [`MAX_BYTES`].
fn text_of(paths: &StatePaths, name: &str) -> Option<String> {
    let file = majordomus_records::regular::open(&paths.state_dir().join(name)).ok()?;
    let mut text = String::new();
    file.take(MAX_BYTES + 1).read_to_string(&mut text).ok()?;
    (text.len() as u64 <= MAX_BYTES).then_some(text)
}

fn decode(text: &str, ns: Namespace) -> Option<Known> {
    let mut lines = text.split('\n');
    if lines.next()? != SCHEMA {
        return None;
    }
    let mut known = Known::default();
    known.reserve(text.len() / 100, text.len() / 4);
    for line in lines {
        if line.is_empty() {
            continue;
        }
        let (ino, rest) = number(line)?;
        let (size, rest) = number(rest)?;
        let (mtime, rest) = number(rest)?;
        let (ctime, rest) = number(rest)?;
        let (id, name) = match rest.strip_prefix("- ") {
            Some(name) => (None, name),
            None => {
                (Some(parse_id(rest.as_bytes().get(..40)?)?), rest.get(41..).filter(|_| rest.as_bytes()[40] == b' ')?)
            }
        };
        // A name git would refuse is never looked up: the reading asks only
        // for the names it lists and takes for branches.
        if !name.starts_with(ns.under) || name.contains(' ') {
            return None;
        }
        let stamp = FileStamp { ino, size, mtime_ns: i128::from(mtime), ctime_ns: i128::from(ctime) };
        known.push(name, KnownFile::new(stamp, id));
    }
    Some(known)
}

/// The decimal number `text` begins with, ended by a space, and what
/// follows that space. Read digit by digit: four numbers on each of ten
/// thousand lines made a general splitter and parser a tenth of a check.
fn number(text: &str) -> Option<(u64, &str)> {
    let mut n: u64 = 0;
    for (i, &d) in text.as_bytes().iter().enumerate() {
        match d {
            b' ' if i > 0 => return Some((n, &text[i + 1..])),
            b'0'..=b'9' => n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?,
            _ => return None,
        }
    }
    None
}

/// The cache's text: [`SCHEMA`], then a line per file in the order the
/// walk met them (see [`Known`]).
fn encode(known: &Known) -> Option<String> {
    let mut text = String::with_capacity(SCHEMA.len() + 1 + known.len() * 110);
    text.push_str(SCHEMA);
    text.push('\n');
    for (name, k) in known.iter() {
        let (mtime, ctime) = (u64::try_from(k.stamp.mtime_ns).ok()?, u64::try_from(k.stamp.ctime_ns).ok()?);
        let id = k.id.map_or_else(|| "-".to_string(), |id| id.to_string());
        writeln!(text, "{} {} {mtime} {ctime} {id} {name}", k.stamp.ino, k.stamp.size).ok()?;
    }
    Some(text)
}

fn store(paths: &StatePaths, ns: Namespace, known: &Known) {
    let Ok(dir) = paths.open_state(false) else { return };
    if let Some(text) = encode(known) {
        let _ = dir.replace_derived(ns.file, text.as_bytes(), Perm::Private);
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
        for damaged in [
            "{".to_string(),
            r#"{"schema":"majordomus.branches-cache/1","known":{"files":{}}}"#.to_string(),
            format!("{SCHEMA}\n1 41 0 0 {id} refs/remotes/x\n"),
            format!("{SCHEMA}\n1 41 0 0 not-an-id refs/heads/side\n"),
            format!("{SCHEMA}\n1 41 0 {id} refs/heads/side\n"),
            format!("majordomus.branches-cache/0\n1 41 0 0 {id} refs/heads/side\n"),
        ] {
            std::fs::write(paths.state_dir().join(FILE), &damaged).expect("write");
            assert!(decode(&damaged, BRANCHES).is_none(), "{damaged}");
            assert_eq!(tips(repo.common_dir(), &paths).expect("read").tips, expected, "{damaged}");
        }
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
        // A branch's line is no remote-tracking ref: the file is damaged.
        let id = t.head();
        let branch_line = format!("{SCHEMA}\n1 41 0 0 {id} refs/heads/main\n");
        assert!(decode(&branch_line, REMOTES).is_none());
        assert!(decode(&branch_line, BRANCHES).is_some());
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
        assert_eq!(decode(&encode(&known).expect("encoded"), BRANCHES), Some(known));
    }
}
