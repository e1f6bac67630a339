//! Whether an upstream the start saw was deleted or rewritten since,
//! whatever value it holds now: its reflog's newest line against the one
//! the start snapshot recorded (`Snapshot::upstream_logs`).
//!
//! A check reads every upstream's reflog (a thousand branches that each
//! track one: a thousand files). What a reading found is kept with the
//! file's stamp ([`KnownLogs`]), as the ref files' readings are
//! ([`crate::refs::local`]): a reflog whose stamp is the one kept is not
//! read again. git appends to a reflog in place (a new size and change
//! time) and rewrites one by renaming a new file over it (a new inode):
//! either changes the stamp.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use crate::refs::local::{self, FileStamp};

use super::Start;
use crate::reflog::{self, Line, LineRef};
use crate::{Reading, Repo};

/// Each of `refnames` with the newest line of its reflog, as
/// [`rewritten`] compares it (empty: no line), for the start snapshot.
pub fn newest_lines<'a>(repo: &Repo, refnames: impl Iterator<Item = &'a str>) -> Reading<BTreeMap<String, String>> {
    refnames
        .map(|r| Ok((r.to_string(), line_key(reflog::last_line(&reflog::log_of(repo.common_dir(), r))?.as_ref()))))
        .collect()
}

/// A reflog line as the snapshot keeps it.
fn line_key(line: Option<&Line>) -> String {
    line.map(|l| key_of(l.borrowed())).unwrap_or_default()
}

/// Whether a ref the start snapshot names among the upstreams was written
/// since the start, whatever value it holds: its reflog's newest line is
/// not the one recorded then. Deleting a ref deletes its reflog, so an
/// upstream pruned and made again at its start value (`git fetch origin
/// main:refs/remotes/origin/feature`, `git update-ref`) shows here, and
/// must then show a fetch or push of its remote like a ref that moved
/// (test/cases/301). A reflog emptied since (`git gc` expires lines older
/// than `gc.reflogExpire`, keeping the file) is not a rewrite; a reflog
/// file gone, where there was a line, is: the ref was deleted and made
/// again without one (written by hand). Read only for the few refs
/// recorded; a record written before it was kept reads nothing here.
pub(super) fn rewritten(common_dir: &Path, start: Start<'_>, refname: &str) -> Reading<bool> {
    let Start::Snapshot(s) = start else { return Ok(false) };
    let Some(recorded) = s.upstream_logs.as_ref().and_then(|l| l.get(refname)) else { return Ok(false) };
    newer_than(common_dir, refname, recorded)
}

/// Whether the newest line of `refname`'s reflog is not `recorded` (see
/// [`rewritten`]).
fn newer_than(common_dir: &Path, refname: &str, recorded: &str) -> Reading<bool> {
    newer_than_at(&reflog::log_of(common_dir, refname), recorded)
}

/// [`newer_than`] for the reflog at `path`.
fn newer_than_at(path: &Path, recorded: &str) -> Reading<bool> {
    match reflog::with_last_line(path, |line| line.map(|l| key_of(l) != recorded))? {
        Some(differs) => Ok(differs),
        None => Ok(!recorded.is_empty() && std::fs::symlink_metadata(path).is_err()),
    }
}

/// [`newer_than`] for the reflog at `path` (of `refname`), through what an
/// earlier check kept of it (`then`); with what to keep of it now.
fn through(
    path: &Path,
    refname: &str,
    recorded: &str,
    then: Option<KnownLog>,
    settled_ns: i128,
) -> (Reading<bool>, Option<KnownLog>) {
    // A link is read through and never kept: its stamp is not its target's.
    let Some(stamp) = std::fs::symlink_metadata(path).ok().filter(|m| m.is_file()).map(|m| FileStamp::of(&m)) else {
        return (newer_than_at(path, recorded), None);
    };
    let key = match then {
        Some(then) if then.stamp == stamp => then.key,
        _ => match reflog::with_last_line(path, |line| line.map(key_of)) {
            Ok(Some(key)) => key,
            // No line (kept as none only once read as none while there).
            Ok(None) if std::fs::symlink_metadata(path).is_err() => return (Ok(!recorded.is_empty()), None),
            Ok(None) => String::new(),
            Err(e) => return (Err(e), None),
        },
    };
    // A reflog that is there without a line was emptied, not rewritten.
    let differs = !key.is_empty() && key != recorded;
    let keep = stamp.settled(settled_ns).then(|| KnownLog { name: refname.to_string(), stamp, key });
    (Ok(differs), keep)
}

/// [`line_key`] of a borrowed line.
fn key_of(line: LineRef<'_>) -> String {
    format!("{} {} {} {}", line.old, line.new, line.time, line.message)
}

/// What earlier checks read of the upstreams' reflogs: each file's stamp
/// then and its newest line's key ([`line_key`]; empty: it had none),
/// sorted by the ref's name (the order the start's snapshot holds them in:
/// read in one pass beside it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownLogs {
    files: Vec<KnownLog>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct KnownLog {
    name: String,
    stamp: FileStamp,
    key: String,
}

/// The first line of [`KnownLogs::to_text`]. The rest is one line per
/// reflog, sorted by name: `<inode> <size> <mtime ns> <ctime ns> <ref
/// name><TAB><key>` (a ref's name holds no space, tab or line break; a
/// reflog line holds no line break).
const LOGS_SCHEMA: &str = "majordomus.upstream-logs-cache/1";

impl KnownLogs {
    /// What [`KnownLogs::to_text`] wrote; `None` where `text` is not that
    /// (damaged anywhere: the whole is ignored, and every reflog read).
    pub fn from_text(text: &str) -> Option<KnownLogs> {
        let mut lines = text.split('\n');
        if lines.next()? != LOGS_SCHEMA {
            return None;
        }
        let mut files: Vec<KnownLog> = Vec::with_capacity(text.len() / 150);
        for line in lines.filter(|l| !l.is_empty()) {
            let mut numbers = [0u64; 4];
            let mut rest = line;
            for n in &mut numbers {
                let (word, after) = rest.split_once(' ')?;
                *n = word.parse().ok().filter(|_| word.bytes().all(|b| b.is_ascii_digit()))?;
                rest = after;
            }
            let (name, key) = rest.split_once('\t')?;
            let sorted = files.last().map_or(true, |last| last.name.as_str() < name);
            if !name.starts_with("refs/") || name.contains(' ') || !sorted {
                return None;
            }
            let [ino, size, mtime, ctime] = numbers;
            let stamp = FileStamp { ino, size, mtime_ns: i128::from(mtime), ctime_ns: i128::from(ctime) };
            files.push(KnownLog { name: name.to_string(), stamp, key: key.to_string() });
        }
        Some(KnownLogs { files })
    }

    /// The text [`KnownLogs::from_text`] reads; `None` where a time is
    /// before the epoch (never kept).
    pub fn to_text(&self) -> Option<String> {
        use std::fmt::Write as _;
        let mut text = String::with_capacity(LOGS_SCHEMA.len() + 1 + self.files.len() * 200);
        text.push_str(LOGS_SCHEMA);
        text.push('\n');
        for KnownLog { name, stamp: s, key } in &self.files {
            let (mtime, ctime) = (u64::try_from(s.mtime_ns).ok()?, u64::try_from(s.ctime_ns).ok()?);
            writeln!(text, "{} {} {mtime} {ctime} {name}\t{key}", s.ino, s.size).ok()?;
        }
        Some(text)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// [`rewritten`] for every upstream the start recorded, read at once,
/// through what an earlier check kept ([`KnownLogs`]): a check that
/// reads many reads them on a thread of their own, beside the
/// remote-tracking refs, before the evidence that asks. Needs no
/// repository handle.
#[derive(Debug, Default)]
pub struct UpstreamsRewritten<'a> {
    /// By name, sorted.
    read: Vec<(&'a str, Reading<bool>)>,
}

impl<'a> UpstreamsRewritten<'a> {
    /// Every upstream `start` recorded, read through `known`, which is left
    /// holding what to keep (the regular files read now and settled by
    /// `now`: [`local::SETTLED`]); whether that differs from what it held.
    pub fn read(
        common_dir: &Path,
        start: Start<'a>,
        known: &mut KnownLogs,
        now: SystemTime,
    ) -> (UpstreamsRewritten<'a>, bool) {
        use std::os::unix::ffi::{OsStrExt, OsStringExt};
        let Start::Snapshot(s) = start else { return (UpstreamsRewritten::default(), false) };
        let Some(logs) = s.upstream_logs.as_ref() else { return (UpstreamsRewritten::default(), false) };
        let settled_ns = local::settled_ns(now);
        // Each reflog's path made in one buffer: `<common>/logs/<refname>`
        // ([`reflog::log_of`]; a ref's name is relative, `refs/...`).
        let mut path = common_dir.join("logs").into_os_string().into_vec();
        path.push(b'/');
        let base = path.len();
        let mut then = std::mem::take(&mut known.files).into_iter().peekable();
        let (mut kept, mut read) = (Vec::with_capacity(logs.len()), Vec::with_capacity(logs.len()));
        let mut changed = false;
        for (name, recorded) in logs {
            // Both sorted: what was kept of a name no longer recorded is dropped.
            while then.next_if(|t| t.name.as_str() < name).is_some() {
                changed = true;
            }
            let was = then.next_if(|t| t.name == *name);
            let was_stamp = was.as_ref().map(|w| w.stamp);
            path.truncate(base);
            path.extend_from_slice(name.as_bytes());
            let (answer, keep) =
                through(Path::new(std::ffi::OsStr::from_bytes(&path)), name, recorded, was, settled_ns);
            // Where the stamp held, what is kept is what was (its key taken).
            changed |= keep.as_ref().map(|k| k.stamp) != was_stamp;
            kept.extend(keep);
            read.push((name, answer));
        }
        changed |= then.next().is_some();
        known.files = kept;
        (UpstreamsRewritten { read }, changed)
    }

    /// What was read for `refname`; `None` where it was not.
    pub(super) fn get(&self, refname: &str) -> Option<Reading<bool>> {
        let i = self.read.binary_search_by(|(n, _)| (*n).cmp(refname)).ok()?;
        Some(self.read[i].1.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_records::task::Snapshot;
    use majordomus_testkit::TestRepo;

    /// A repository with `feature` pushed and tracked, and the start's
    /// snapshot of its upstream's reflog.
    fn tracked() -> (TestRepo, tempfile::TempDir, Snapshot) {
        let t = TestRepo::with_commit();
        let origin = t.with_origin();
        t.git(&["branch", "feature"]);
        t.git(&["push", "-q", "-u", "origin", "feature"]);
        let repo = crate::open(t.path()).expect("open");
        let lines = newest_lines(&repo, ["refs/remotes/origin/feature"].into_iter()).expect("read");
        let snapshot = Snapshot { upstream_logs: Some(lines.into()), ..Snapshot::default() };
        (t, origin, snapshot)
    }

    fn later() -> SystemTime {
        SystemTime::now() + std::time::Duration::from_secs(60)
    }

    fn read_all(t: &TestRepo, s: &Snapshot, known: &mut KnownLogs, now: SystemTime) -> (bool, bool) {
        let common = t.path().join(".git");
        let (read, changed) = UpstreamsRewritten::read(&common, Start::Snapshot(s), known, now);
        let rewritten = read.get("refs/remotes/origin/feature").expect("read").expect("readable");
        let direct = super::rewritten(&common, Start::Snapshot(s), "refs/remotes/origin/feature").expect("readable");
        assert_eq!(rewritten, direct, "read through what is kept as read directly");
        (rewritten, changed)
    }

    #[test]
    fn a_reflog_kept_is_not_read_again_while_its_stamp_holds_and_read_again_once_it_moves() {
        let (t, _origin, snapshot) = tracked();
        let mut known = KnownLogs::default();
        assert_eq!(read_all(&t, &snapshot, &mut known, later()), (false, true));
        assert_eq!(known.len(), 1);
        assert_eq!(read_all(&t, &snapshot, &mut known, later()), (false, false), "nothing new to keep");
        // What is kept is what is answered while the stamp holds: a key
        // put in its place (as no reading of the file could give) is
        // taken, so the file was not read.
        let mut planted = known.clone();
        planted.files.iter_mut().for_each(|f| f.key = "x".repeat(40));
        let common = t.path().join(".git");
        let (read, _) = UpstreamsRewritten::read(&common, Start::Snapshot(&snapshot), &mut planted, later());
        assert!(read.get("refs/remotes/origin/feature").expect("read").expect("readable"));
        // Deleted and made again at its start value: a new file, read again.
        t.git(&["update-ref", "-d", "refs/remotes/origin/feature"]);
        t.git(&["update-ref", "refs/remotes/origin/feature", "main"]);
        assert_eq!(read_all(&t, &snapshot, &mut known, later()), (true, true));
        // Its reflog removed by hand: no file, never kept.
        std::fs::remove_file(common.join("logs/refs/remotes/origin/feature")).expect("remove");
        assert_eq!(read_all(&t, &snapshot, &mut known, later()), (true, true));
        assert!(known.is_empty());
    }

    #[test]
    fn a_reflog_changed_within_the_settling_time_is_not_kept() {
        let (t, _origin, snapshot) = tracked();
        let mut known = KnownLogs::default();
        assert_eq!(read_all(&t, &snapshot, &mut known, SystemTime::now()), (false, false));
        assert!(known.is_empty(), "{known:?}");
    }

    #[test]
    fn what_is_kept_reads_back_as_it_was_written_and_a_damaged_file_reads_as_nothing() {
        let (t, _origin, snapshot) = tracked();
        let mut known = KnownLogs::default();
        read_all(&t, &snapshot, &mut known, later());
        let text = known.to_text().expect("text");
        assert_eq!(KnownLogs::from_text(&text), Some(known));
        for damaged in [
            String::new(),
            "majordomus.upstream-logs-cache/0\n".to_string(),
            format!("{LOGS_SCHEMA}\n1 2 3 refs/remotes/origin/x\tkey\n"),
            format!("{LOGS_SCHEMA}\n1 2 3 +4 refs/remotes/origin/x\tkey\n"),
            format!("{LOGS_SCHEMA}\n1 2 3 4 refs/remotes/origin/x key\n"),
            format!("{LOGS_SCHEMA}\n1 2 3 4 HEAD\tkey\n"),
            format!("{LOGS_SCHEMA}\n1 2 3 4 refs/remotes/origin/b\tkey\n1 2 3 4 refs/remotes/origin/a\tkey\n"),
        ] {
            assert_eq!(KnownLogs::from_text(&damaged), None, "{damaged:?}");
        }
    }

    #[test]
    fn a_line_read_in_place_has_the_key_the_start_recorded_for_it() {
        let (a, b) = ("a".repeat(40), "b".repeat(40));
        for (time, message) in [(1_700_000_000, "fetch origin: fast-forward"), (-5, ""), (0, "a\tb  c")] {
            let line = Line { old: a.clone(), new: b.clone(), time, message: message.to_string() };
            let borrowed = LineRef { old: &a, new: &b, time, message };
            assert_eq!(key_of(borrowed), line_key(Some(&line)));
            assert_eq!(key_of(borrowed), format!("{a} {b} {time} {message}"));
        }
    }
}
