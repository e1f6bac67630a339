//! Dating a branch or a linked worktree by the first line its reflog still
//! holds.
//!
//! Git does not record when a ref was created. Its reflog does record every
//! update, and the oldest line it still holds is the nearest thing to a
//! birth date the repository keeps. That date is only as fine as the log:
//! where git has expired the older lines (`gc.reflogExpire`, 90 days by
//! default), the first line left is younger than the ref, so a ref reads as
//! younger than it is. A ref with no reflog at all (`core.logAllRefUpdates`
//! off, a ref written by another tool) has no date: [`Dating::Undated`].
//!
//! The reflog files are read directly (`<commondir>/logs/refs/heads/NAME`
//! for a branch, `<commondir>/worktrees/NAME/logs/HEAD` for a linked
//! worktree); nothing here runs git.
//!
//! The other readings of a reflog read it from its end: the last line
//! ([`last_line`]: how a ref last moved) and the lines since a time
//! ([`since`]: what HEAD pointed at since the task's start), so a log of
//! years costs what its newest lines cost.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};

use crate::{Reading, Repo, Unread};

/// When a ref was first logged, or why that cannot be said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dating {
    /// The time on the first line its reflog still holds.
    FirstLogged(DateTime<Utc>),
    /// No date can be read; the reason says why (no reflog, an empty one,
    /// a first line that is not a reflog line).
    Undated(&'static str),
}

impl Dating {
    pub fn first_logged(&self) -> Option<DateTime<Utc>> {
        match self {
            Dating::FirstLogged(t) => Some(*t),
            Dating::Undated(_) => None,
        }
    }
}

/// The reflog file of a local branch.
pub fn branch_log(repo: &Repo, branch: &str) -> PathBuf {
    repo.common_dir().join("logs").join("refs").join("heads").join(branch)
}

/// The reflog file of a linked worktree's HEAD.
pub fn worktree_log(repo: &Repo, worktree: &str) -> PathBuf {
    repo.common_dir().join("worktrees").join(worktree).join("logs").join("HEAD")
}

/// Dates a reflog file by its first line. A missing or empty file is
/// undated; a file that exists and cannot be read is an unread reading.
pub fn date(path: &Path) -> Reading<Dating> {
    let file = match crate::file::open(path) {
        Ok((f, _)) => f,
        Err(e) if e.is_not_found() => return Ok(Dating::Undated("it has no reflog")),
        Err(e) => return Err(refused(path, e)),
    };
    let mut first = Vec::new();
    BufReader::new(file)
        .read_until(b'\n', &mut first)
        .map_err(|e| Unread::io(format!("could not read the reflog {}: {e}", path.display())))?;
    let line = String::from_utf8_lossy(&first);
    if line.trim().is_empty() {
        return Ok(Dating::Undated("its reflog is empty"));
    }
    Ok(match parse_time(&line) {
        Some(t) => Dating::FirstLogged(t),
        None => Dating::Undated("the first line of its reflog holds no time"),
    })
}

/// The first line the reflog at `path` still holds (`None`: no reflog, an
/// empty one, or a first line that is not a reflog line).
pub fn first_line(path: &Path) -> Reading<Option<Line>> {
    let file = match crate::file::open(path) {
        Ok((f, _)) => f,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(refused(path, e)),
    };
    let mut first = Vec::new();
    BufReader::new(file)
        .read_until(b'\n', &mut first)
        .map_err(|e| Unread::io(format!("could not read the reflog {}: {e}", path.display())))?;
    Ok(Line::parse(String::from_utf8_lossy(&first).trim_end_matches('\n')))
}

/// The time of one reflog line:
/// `OLD NEW Name <email> SECONDS ±HHMM<TAB>message`.
pub fn parse_time(line: &str) -> Option<DateTime<Utc>> {
    let head = line.split('\t').next()?;
    let after_ident = &head[head.rfind('>')? + 1..];
    let mut parts = after_ident.split_whitespace();
    let seconds: i64 = parts.next()?.parse().ok()?;
    Utc.timestamp_opt(seconds, 0).single()
}

/// One reflog line: `OLD NEW Name <email> SECONDS ±HHMM<TAB>message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub old: String,
    pub new: String,
    pub time: i64,
    pub message: String,
}

impl Line {
    /// Whether this is the line `git remote rename` appends to each ref
    /// it renames: `remote: renamed A to B`, the value kept.
    pub fn renamed(&self) -> bool {
        self.old == self.new && self.message.starts_with("remote: renamed ")
    }

    /// The line, borrowed.
    pub fn borrowed(&self) -> LineRef<'_> {
        LineRef { old: &self.old, new: &self.new, time: self.time, message: &self.message }
    }

    /// Parses one line (without its newline); `None` when it is not a reflog line.
    pub fn parse(line: &str) -> Option<Line> {
        LineRef::parse(line).map(|l| Line {
            old: l.old.to_string(),
            new: l.new.to_string(),
            time: l.time,
            message: l.message.to_string(),
        })
    }
}

/// A [`Line`] borrowed from the text it was parsed from: what a reading
/// that only compares a line takes, without copying it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRef<'a> {
    pub old: &'a str,
    pub new: &'a str,
    pub time: i64,
    pub message: &'a str,
}

impl<'a> LineRef<'a> {
    /// [`Line::parse`], borrowing.
    pub fn parse(line: &'a str) -> Option<LineRef<'a>> {
        let (head, message) = line.split_once('\t').unwrap_or((line, ""));
        let mut words = head.splitn(3, ' ');
        let (old, new) = (words.next()?, words.next()?);
        if old.len() < 40 || new.len() < 40 || !(old.bytes().chain(new.bytes()).all(|b| b.is_ascii_hexdigit())) {
            return None;
        }
        let time = parse_time(line)?.timestamp();
        Some(LineRef { old, new, time, message: message.trim_end() })
    }
}

/// The reflog file of any ref, by its full name, in the git directory
/// that holds it (`HEAD` is a worktree's own; `refs/...` the common one's).
pub fn log_of(dir: &Path, refname: &str) -> PathBuf {
    dir.join("logs").join(refname)
}

/// How much of a reflog's end is read at once when many lines are wanted
/// (one line is a few hundred bytes: the last one is read in [`LINE`]).
const CHUNK: u64 = 16 * 1024;
const LINE: u64 = 1024;

/// The lines of the reflog at `path` read from its end, `chunk` bytes at a
/// time, newest first, for as long as `more` says to go on (it is given
/// each line once parsed). A missing file has no lines; a line that does
/// not parse is skipped.
///
/// Opened without blocking ([`crate::file::open`]): a FIFO planted where a
/// reflog is read is refused at once, never waited on.
fn from_end(path: &Path, chunk: u64, mut more: impl FnMut(&Line) -> bool) -> Reading<Vec<Line>> {
    use std::os::unix::fs::FileExt;
    let (file, mut end) = match crate::file::open(path) {
        Ok(opened) => opened,
        Err(e) if e.is_not_found() => return Ok(Vec::new()),
        Err(e) => return Err(refused(path, e)),
    };
    let mut carry: Vec<u8> = Vec::new();
    let mut out = Vec::new();
    while end > 0 {
        let start = end.saturating_sub(chunk);
        let mut chunk = vec![0; (end - start) as usize];
        file.read_exact_at(&mut chunk, start).map_err(|e| unread(path, e))?;
        chunk.extend_from_slice(&carry);
        // The first piece may be a line cut by the chunk's start: kept
        // for the next chunk unless this chunk began the file.
        let mut pieces: Vec<&[u8]> = chunk.split(|b| *b == b'\n').collect();
        let first = if start > 0 { pieces.remove(0).to_vec() } else { Vec::new() };
        for piece in pieces.iter().rev() {
            let Some(line) = Line::parse(&String::from_utf8_lossy(piece)) else { continue };
            let go_on = more(&line);
            out.push(line);
            if !go_on {
                return Ok(out);
            }
        }
        carry = first;
        end = start;
    }
    Ok(out)
}

/// Why the reflog at `path` could not be read: an I/O error, or something
/// that is not a regular file (opened without blocking, a FIFO is refused
/// at once: [`crate::file::open`]).
fn unread(path: &Path, e: impl std::fmt::Display) -> Unread {
    Unread::io(format!("could not read the reflog {}: {e}", path.display()))
}

/// [`unread`] for what [`crate::file::open`] refused: a thing that is not
/// a regular file is named once, as what it is.
fn refused(path: &Path, e: crate::file::FileError) -> Unread {
    match e {
        crate::file::FileError::NotRegular { kind, .. } => {
            Unread::io(format!("the reflog {} is {kind}, not a regular file", path.display()))
        }
        crate::file::FileError::Io { source, .. } => unread(path, source),
        e @ crate::file::FileError::TooLarge { .. } => Unread::io(e.to_string()),
    }
}

/// The newest line of the reflog at `path`; `None` when it has none.
pub fn last_line(path: &Path) -> Reading<Option<Line>> {
    Ok(from_end(path, LINE, |_| false)?.into_iter().next())
}

/// The newest line of the reflog at `path` that moved its ref or could
/// have: `git remote rename` carries a ref's reflog to its new name and
/// appends a line that keeps its value (`remote: renamed A to B`, old and
/// new the same), which says nothing of how the ref came to hold it; the
/// line below it does. `None` when there is no other line.
pub fn last_move(path: &Path) -> Reading<Option<Line>> {
    Ok(last_move_renamed(path)?.0)
}

/// [`last_move`], with the names the ref had before each rename since
/// that line, newest first (`refs/remotes/upstream/main` for `remote:
/// renamed refs/remotes/upstream/main to refs/remotes/origin/main`): the
/// line names the remote as it was called then.
pub fn last_move_renamed(path: &Path) -> Reading<(Option<Line>, Vec<String>)> {
    let lines = from_end(path, LINE, Line::renamed)?;
    let before = lines
        .iter()
        .take_while(|l| l.renamed())
        .filter_map(|l| {
            l.message.strip_prefix("remote: renamed ")?.split_once(" to ").map(|(from, _)| from.to_string())
        })
        .collect();
    Ok((lines.into_iter().find(|l| !l.renamed()), before))
}

/// [`last_line`] handed to `with` without copying it, where the newest
/// line is whole in the file's last [`LINE`] bytes and parses (as it is in
/// nearly every reflog); else `last_line`'s, borrowed from it. The answer
/// is `last_line`'s either way: that reading skips only lines that do not
/// parse, and an empty one never does.
pub fn with_last_line<T>(path: &Path, with: impl FnOnce(Option<LineRef<'_>>) -> T) -> Reading<T> {
    use std::os::unix::fs::FileExt;
    let (file, len) = match crate::file::open(path) {
        Ok(opened) => opened,
        Err(e) if e.is_not_found() => return Ok(with(None)),
        Err(e) => return Err(refused(path, e)),
    };
    let mut buf = [0u8; LINE as usize];
    let start = len.saturating_sub(LINE);
    let tail = &mut buf[..(len - start) as usize];
    file.read_exact_at(tail, start).map_err(|e| unread(path, e))?;
    let end = tail.iter().rposition(|b| *b != b'\n').map_or(0, |i| i + 1);
    let body = &tail[..end];
    let newest = match body.iter().rposition(|b| *b == b'\n') {
        Some(i) => Some(&body[i + 1..]),
        // Whole only where the file begins there.
        None => (start == 0).then_some(body),
    };
    if let Some(line) =
        newest.filter(|l| !l.is_empty()).and_then(|l| std::str::from_utf8(l).ok()).and_then(LineRef::parse)
    {
        return Ok(with(Some(line)));
    }
    let line = last_line(path)?;
    Ok(with(line.as_ref().map(Line::borrowed)))
}

/// The lines of the reflog at `path` timed at or after `time` (seconds),
/// newest first.
pub fn since(path: &Path, time: i64) -> Reading<Vec<Line>> {
    let mut lines = from_end(path, CHUNK, |l| l.time >= time)?;
    if lines.last().is_some_and(|l| l.time < time) {
        lines.pop();
    }
    Ok(lines)
}

/// Where the reflog at `path` ends now: its length and its last line (a
/// missing file is an empty one).
pub fn mark(path: &Path) -> Reading<(u64, String)> {
    let bytes = match crate::file::read(path) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok((0, String::new())),
        Err(e) => return Err(refused(path, e)),
    };
    let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    let last = body.rsplit(|b| *b == b'\n').next().unwrap_or_default();
    Ok((bytes.len() as u64, String::from_utf8_lossy(last).into_owned()))
}

/// The lines appended to the reflog at `path` after a [`mark`] of it,
/// oldest first; `None` when the file no longer begins with what was
/// marked (it is shorter, or the line ending at the mark is another:
/// `git reflog expire` rewrote it).
pub fn after(path: &Path, len: u64, last: &str) -> Reading<Option<Vec<Line>>> {
    let bytes = match crate::file::read(path) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok((len == 0).then(Vec::new)),
        Err(e) => return Err(refused(path, e)),
    };
    let Ok(len) = usize::try_from(len) else { return Ok(None) };
    if bytes.len() < len {
        return Ok(None);
    }
    let (before, appended) = bytes.split_at(len);
    let kept = before.strip_suffix(b"\n").unwrap_or(before);
    let marked = kept.rsplit(|b| *b == b'\n').next().unwrap_or_default();
    if (len > 0 && !before.ends_with(b"\n")) || String::from_utf8_lossy(marked) != last {
        return Ok(None);
    }
    Ok(Some(appended.split(|b| *b == b'\n').filter_map(|l| Line::parse(&String::from_utf8_lossy(l))).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn the_newest_line_read_in_place_is_the_one_read_by_copying() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("log");
        let line = |old: char, new: char, time: i64, message: &str| {
            format!(
                "{} {} A U Thor <a@example.com> {time} +0000\t{message}",
                old.to_string().repeat(40),
                new.to_string().repeat(40)
            )
        };
        let good = line('a', 'b', 1_700_000_000, "fetch origin: fast-forward");
        let older = line('0', 'a', 1_600_000_000, "branch: Created from HEAD");
        let long = line('b', 'c', 1_700_000_100, &"m".repeat(3000));
        let filler = format!("{older}\n").repeat(40);
        let cases: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"\n\n".to_vec(),
            format!("{good}\n").into_bytes(),
            good.clone().into_bytes(),
            format!("{older}\n{good}\n\n\n").into_bytes(),
            format!("{good}\nnot a reflog line\n").into_bytes(),
            format!("{filler}{good}\n").into_bytes(),
            format!("{filler}{long}\n").into_bytes(),
            format!("{filler}{good}\n{}\n", "x".repeat(2000)).into_bytes(),
            [format!("{older}\n{}\tbad ", &good[..good.find('\t').unwrap_or(0)]).as_bytes(), &[0xff]].concat(),
            [format!("{good}\n").as_bytes(), &[0xff, 0xfe, b'\n']].concat(),
            format!("{}\n", line('a', 'b', -5, "before the epoch")).into_bytes(),
            format!("{}\n", line('a', 'b', 0, "  spaced  ")).into_bytes(),
        ];
        for bytes in cases {
            std::fs::write(&path, &bytes).expect("write");
            let copied = last_line(&path).expect("read");
            let in_place = with_last_line(&path, |l| {
                l.map(|l| Line { old: l.old.into(), new: l.new.into(), time: l.time, message: l.message.into() })
            })
            .expect("read");
            assert_eq!(in_place, copied, "{:?}", String::from_utf8_lossy(&bytes));
        }
        std::fs::remove_file(&path).expect("remove");
        assert!(with_last_line(&path, |l| l.is_none()).expect("a missing log has no line"));
    }

    #[test]
    fn a_remote_renames_lines_are_read_through_to_the_move_below_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("log");
        let line = |old: char, new: char, message: &str| {
            format!(
                "{} {} A U Thor <a@example.com> 1700000000 +0000\t{message}\n",
                old.to_string().repeat(40),
                new.to_string().repeat(40)
            )
        };
        let push = line('a', 'b', "update by push");
        let there = line('b', 'b', "remote: renamed refs/remotes/origin/main to refs/remotes/up/main");
        let back = line('b', 'b', "remote: renamed refs/remotes/up/main to refs/remotes/origin/main");
        std::fs::write(&path, format!("{push}{there}{back}")).expect("write");
        let (moved, before) = last_move_renamed(&path).expect("read");
        assert_eq!(moved.map(|l| l.message), Some("update by push".to_string()));
        assert_eq!(before, ["refs/remotes/up/main", "refs/remotes/origin/main"]);
        // A line that moved the ref is no rename's, whatever it says.
        let forged = line('b', 'c', "remote: renamed refs/remotes/fork/main to refs/remotes/origin/main");
        std::fs::write(&path, format!("{push}{forged}")).expect("write");
        assert_eq!(last_move(&path).expect("read").map(|l| l.new), Some("c".repeat(40)));
        std::fs::write(&path, there).expect("write");
        assert_eq!(last_move_renamed(&path).expect("read"), (None, vec!["refs/remotes/origin/main".to_string()]));
    }

    #[test]
    fn the_first_line_of_a_reflog_is_its_date_not_the_latest() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("side");
        let zero = "0".repeat(40);
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        std::fs::write(
            &path,
            format!(
                "{zero} {a} A U Thor <a@example.com> 1764496800 +0100\tbranch: Created from HEAD\n\
                 {a} {b} A U Thor <a@example.com> 1764500400 +0000\tcommit: later\n"
            ),
        )
        .expect("write");
        let dated = date(&path).expect("read");
        assert_eq!(dated, Dating::FirstLogged(Utc.timestamp_opt(1_764_496_800, 0).single().expect("time")));
    }

    #[test]
    fn a_reflog_is_read_from_its_end_across_chunks() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("HEAD");
        let zero = "0".repeat(40);
        let lines: String = (0..2000)
            .map(|n| format!("{zero} {:040x} A U Thor <a@example.com> {} +0000\tcommit: number {n}\n", n, 1_000 + n))
            .collect();
        std::fs::write(&path, &lines).expect("write");
        assert!(lines.len() as u64 > 3 * CHUNK);
        let last = last_line(&path).expect("read").expect("a line");
        assert_eq!(
            (last.new, last.time, last.message.as_str()),
            (format!("{:040x}", 1999), 2999, "commit: number 1999")
        );
        let recent = since(&path, 1_000 + 1500).expect("read");
        assert_eq!(recent.len(), 500);
        assert_eq!(recent.last().expect("oldest").time, 2500);
        assert_eq!(since(&path, 0).expect("read").len(), 2000);
        assert_eq!(last_line(&dir.path().join("none")).expect("read"), None);
        let long =
            format!("{zero} {zero} A U Thor <a@example.com> 5 +0000\tfetch {}: fast-forward\n", "x".repeat(3000));
        std::fs::write(&path, format!("{lines}{long}")).expect("write");
        let last = last_line(&path).expect("read").expect("a line");
        assert!(last.message.len() > 3000 && last.message.ends_with("fast-forward"), "{}", last.message);
        std::fs::write(&path, "").expect("write");
        assert_eq!(last_line(&path).expect("read"), None);
    }

    #[test]
    fn the_lines_after_a_mark_are_those_appended_whatever_their_time_and_a_rewrite_loses_the_mark() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("HEAD");
        let zero = "0".repeat(40);
        let line = |n: u32, t: u32| format!("{zero} {:040x} A U Thor <a@example.com> {t} +0000\tcommit: {n}\n", n);
        assert_eq!(mark(&path).expect("mark"), (0, String::new()));
        assert_eq!(after(&path, 0, "").expect("read"), Some(Vec::new()));
        std::fs::write(&path, format!("{}{}", line(1, 2000), line(2, 3000))).expect("write");
        let (len, last) = mark(&path).expect("mark");
        assert!(last.ends_with("commit: 2"));
        std::fs::write(&path, format!("{}{}{}", line(1, 2000), line(2, 3000), line(3, 10))).expect("write");
        let appended = after(&path, len, &last).expect("read").expect("the mark holds");
        assert_eq!(appended.len(), 1);
        assert_eq!((appended[0].time, appended[0].message.as_str()), (10, "commit: 3"), "dated before, still after");
        std::fs::write(&path, line(3, 10)).expect("write");
        assert_eq!(after(&path, len, &last).expect("read"), None, "expired: shorter");
        std::fs::write(&path, format!("{}{}{}", line(1, 2000), line(9, 3000), line(3, 10))).expect("write");
        assert_eq!(after(&path, len, &last).expect("read"), None, "rewritten: another line at the mark");
    }

    #[test]
    fn a_missing_or_empty_reflog_is_undated_and_says_which() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("none");
        assert_eq!(date(&path).expect("read"), Dating::Undated("it has no reflog"));
        std::fs::write(&path, "").expect("write");
        assert_eq!(date(&path).expect("read"), Dating::Undated("its reflog is empty"));
        std::fs::write(&path, "garbage\n").expect("write");
        assert!(matches!(date(&path).expect("read"), Dating::Undated(r) if r.contains("no time")));
    }

    #[test]
    fn a_branch_and_a_worktree_made_by_git_are_dated_by_their_reflogs() {
        let t = TestRepo::with_commit();
        let before = Utc::now().timestamp() - 1;
        t.git(&["branch", "side"]);
        let wt = t
            .path()
            .parent()
            .expect("parent")
            .join(format!("{}-wt", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["worktree", "add", "-q", "-b", "wt-branch", wt.to_str().expect("utf8")]);
        let repo = crate::open(t.path()).expect("open");
        let name = crate::worktrees::read(&repo).expect("worktrees").into_keys().next().expect("one worktree");
        for path in [branch_log(&repo, "side"), worktree_log(&repo, &name)] {
            let at = date(&path).expect("read").first_logged().expect("dated");
            assert!(at.timestamp() >= before, "{} dated {at}", path.display());
        }
        assert!(matches!(date(&branch_log(&repo, "never-made")).expect("read"), Dating::Undated(_)));
        std::fs::remove_dir_all(wt).expect("cleanup");
    }
}
