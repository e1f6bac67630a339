//! The ledger's mark: where the ledger ended after the entry majordomus
//! wrote last, kept in the working tree's git directory.
//!
//! The ledger is a file of the state directory, which `git clean -x` and
//! `rm -r .ai` remove whole. Its entries are what `todos-done`,
//! `claims-released`, `filings-closed`, `no-background-work` and
//! `gates-green` read, so a ledger that lost its lines would answer "no
//! todo open, nothing claimed, nothing running" for a task that declared
//! all three. Every append notes, beside the task record's copy
//! ([`crate::StatePaths::task_copy`]), the ledger's length after its line
//! and that line's hash. The ledger only grows, so a mark stays true: a
//! ledger shorter than a mark, or without the marked line where the mark
//! says, lost lines, and its readers say so instead of reading what is
//! left. `start` marks the ledger as it finds it, so what happened to it
//! between tasks is not held against the next one.
//!
//! Both are flushed to the disk: the line before the mark that claims it
//! ([`crate::lines::append_locked`]), then the mark itself. A crash of the
//! machine must leave neither a mark claiming a line the disk lost nor an
//! empty mark: either reads as a ledger that lost lines, which holds every
//! question reading it at `unknown` for the rest of the task. Those are two
//! waits on the disk per append (about 0.7 ms each on the benchmark's
//! machine, bench/results.txt), so a writer at every stop appends only
//! what changes what the ledger says (the stop hook's report of background
//! work, apps/majordomus-cli/src/commands/hook/background.rs).
//!
//! Rewriting the ledger by hand keeping its length and the marked line is
//! not caught; nothing a local tool writes can be kept from its own user
//! (README, "What a pass is worth").

use serde::{Deserialize, Serialize};

use super::LedgerError;
use crate::StatePaths;

/// The mark's file, in [`crate::paths::GIT_STATE_DIR`].
const MARK_FILE: &str = "ledger-mark.json";

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Mark {
    /// The ledger's length just after the marked line.
    end: u64,
    /// The marked line's length, its final newline included.
    line_len: u64,
    /// The marked line's FNV-1a hash (64 bits, hex): it tells a line from
    /// another, not a forger from an author.
    line_hash: String,
}

/// Notes that `line` ends at `end` in the ledger of `paths`.
pub(super) fn note(paths: &StatePaths, end: u64, line: &[u8]) -> Result<(), LedgerError> {
    let Some(dir) = paths.open_git_state(true) else { return Ok(()) };
    let mark = Mark { end, line_len: line.len() as u64, line_hash: fnv1a(line) };
    let bytes = serde_json::to_vec(&mark).map_err(|e| LedgerError::Invalid(e.to_string()))?;
    dir?.replace(MARK_FILE, &bytes, crate::confined::Perm::Private)?;
    Ok(())
}

/// Marks the ledger as it is now (`bytes`): its last whole line, or no mark
/// for a ledger holding none.
pub(super) fn renew(paths: &StatePaths, bytes: &[u8]) -> Result<(), LedgerError> {
    let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let start = bytes[..whole.saturating_sub(1)].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    if whole == 0 {
        let Some(dir) = paths.open_git_state(false) else { return Ok(()) };
        return match dir {
            Ok(dir) => dir.remove(MARK_FILE).map(|_| ()).map_err(LedgerError::from),
            Err(e) if e.io_kind() == Some(std::io::ErrorKind::NotFound) => Ok(()),
            Err(e) => Err(e.into()),
        };
    }
    note(paths, whole as u64, &bytes[start..whole])
}

/// Whether the ledger of `paths`, holding `bytes`, still holds the marked
/// line where the mark says; `Err` says what it lost. No mark (none kept
/// yet, or the git directory unknown) is nothing lost; a mark that cannot
/// be read is said to be so.
pub(super) fn verify(paths: &StatePaths, bytes: &[u8]) -> Result<(), String> {
    let Some(dir) = paths.open_git_state(false) else { return Ok(()) };
    let dir = match dir {
        Ok(dir) => dir,
        Err(e) if e.io_kind() == Some(std::io::ErrorKind::NotFound) => return Ok(()),
        Err(e) => return Err(format!("its mark in the git directory cannot be reached ({e})")),
    };
    let Some(raw) = dir.read(MARK_FILE).map_err(|e| format!("its mark in the git directory cannot be read ({e})"))?
    else {
        return Ok(());
    };
    let mark: Mark = serde_json::from_slice(&raw)
        .map_err(|e| format!("its mark in the git directory, {MARK_FILE}, is not a mark ({e})"))?;
    let held = bytes.len() as u64;
    let lost = || {
        format!(
            "it lost lines since majordomus last wrote it: it held at least {} bytes then, and {held} now \
             (a `git clean -x` or `rm -r .ai` removes it); restore it, or end the task with \
             `majordomus finish --outcome partial` and start again",
            mark.end
        )
    };
    if held < mark.end || mark.line_len > mark.end {
        return Err(lost());
    }
    let line = &bytes[(mark.end - mark.line_len) as usize..mark.end as usize];
    if fnv1a(line) != mark.line_hash {
        return Err(lost());
    }
    Ok(())
}

/// FNV-1a, 64 bits, as 16 hex digits.
fn fnv1a(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3));
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> (tempfile::TempDir, StatePaths) {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
        let paths = StatePaths::new(dir.path()).with_git_dir(dir.path().join(".git"));
        (dir, paths)
    }

    #[test]
    fn a_ledger_that_grew_past_its_mark_lost_nothing_and_one_cut_short_or_rewritten_did() {
        let (_dir, paths) = paths();
        let ledger = b"{\"a\":1}\n{\"b\":2}\n".to_vec();
        note(&paths, 16, b"{\"b\":2}\n").expect("note");
        assert_eq!(verify(&paths, &ledger), Ok(()));
        let mut grown = ledger.clone();
        grown.extend_from_slice(b"{\"c\":3}\n");
        assert_eq!(verify(&paths, &grown), Ok(()));
        assert!(verify(&paths, b"").expect_err("emptied").contains("lost lines"));
        assert!(verify(&paths, &ledger[..8]).expect_err("cut").contains("held at least 16 bytes then, and 8 now"));
        assert!(verify(&paths, b"{\"a\":1}\n{\"x\":2}\n").is_err(), "the marked line rewritten");
    }

    #[test]
    fn without_a_mark_or_a_git_directory_nothing_is_lost_and_renewing_an_empty_ledger_removes_the_mark() {
        let (_dir, paths) = paths();
        assert_eq!(verify(&paths, b""), Ok(()));
        assert_eq!(verify(&StatePaths::new("/nonexistent"), b""), Ok(()));
        renew(&paths, b"{\"a\":1}\n{\"b\":2}\n{\"torn\"").expect("renew");
        assert_eq!(verify(&paths, b"{\"a\":1}\n{\"b\":2}\n"), Ok(()));
        assert!(verify(&paths, b"{\"a\":1}\n").is_err());
        renew(&paths, b"").expect("renew empty");
        assert_eq!(verify(&paths, b""), Ok(()));
    }

    #[test]
    fn a_mark_that_is_not_one_is_said_to_be_so() {
        let (dir, paths) = paths();
        std::fs::create_dir_all(dir.path().join(".git/majordomus")).expect("mkdir");
        std::fs::write(dir.path().join(".git/majordomus").join(MARK_FILE), b"garbage").expect("write");
        assert!(verify(&paths, b"").expect_err("garbage").contains("is not a mark"));
    }
}
