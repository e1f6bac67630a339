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
    Undated(String),
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
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Dating::Undated("it has no reflog".into())),
        Err(e) => return Err(Unread::io(format!("could not read the reflog {}: {e}", path.display()))),
    };
    let mut first = Vec::new();
    BufReader::new(file)
        .read_until(b'\n', &mut first)
        .map_err(|e| Unread::io(format!("could not read the reflog {}: {e}", path.display())))?;
    let line = String::from_utf8_lossy(&first);
    if line.trim().is_empty() {
        return Ok(Dating::Undated("its reflog is empty".into()));
    }
    Ok(match parse_time(&line) {
        Some(t) => Dating::FirstLogged(t),
        None => Dating::Undated("the first line of its reflog holds no time".into()),
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

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
    fn a_missing_or_empty_reflog_is_undated_and_says_which() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("none");
        assert_eq!(date(&path).expect("read"), Dating::Undated("it has no reflog".into()));
        std::fs::write(&path, "").expect("write");
        assert_eq!(date(&path).expect("read"), Dating::Undated("its reflog is empty".into()));
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
