//! The operations in progress, read as `git status` reads them.
//!
//! libgit2's `Repository::state` names one state and misses one git
//! reports: a multi-commit cherry-pick (or revert) stopped on a conflict
//! and resolved with `git commit` instead of `--continue` leaves no
//! `CHERRY_PICK_HEAD`, yet `sequencer/todo` still holds the next pick and
//! `git status` says "Cherry-pick currently in progress". So the files are
//! read here the way git's `wt_status_get_state` reads them, in the
//! worktree's own git directory (`.git/worktrees/NAME/` in a linked
//! worktree): `MERGE_HEAD`; `rebase-apply/` (with `applying`: an am
//! session) or `rebase-merge/` (with `interactive`: an interactive
//! rebase); `CHERRY_PICK_HEAD` and `REVERT_HEAD` holding an object id;
//! `BISECT_LOG`; and the first command of `sequencer/todo` (`pick`/`p`: a
//! cherry-pick, `revert`: a revert). What is reported then follows git's
//! own order of precedence ([`operations`]), so the reading names what
//! `git status` names; the test at the end of this file drives every state
//! with real git and compares.

use std::path::Path;

use crate::{Reading, Repo, Unread};

/// An operation `git status` reports in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    Merge,
    /// `git am` (an am session).
    Am,
    Rebase,
    RebaseInteractive,
    CherryPick,
    Revert,
    Bisect,
}

impl Operation {
    /// The operation's name in evidence.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Merge => "merge",
            Operation::Am => "am session",
            Operation::Rebase => "rebase",
            Operation::RebaseInteractive => "interactive rebase",
            Operation::CherryPick => "cherry-pick",
            Operation::Revert => "revert",
            Operation::Bisect => "bisect",
        }
    }

    /// The git command that continues or ends it.
    pub fn command(self) -> &'static str {
        match self {
            Operation::Merge => "merge",
            Operation::Am => "am",
            Operation::Rebase | Operation::RebaseInteractive => "rebase",
            Operation::CherryPick => "cherry-pick",
            Operation::Revert => "revert",
            Operation::Bisect => "bisect",
        }
    }
}

/// One operation in progress, and what of the git directory shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InProgress {
    pub operation: Operation,
    /// The file or directory that shows it (`MERGE_HEAD`, `sequencer/todo`, ...).
    pub shown_by: &'static str,
}

impl InProgress {
    /// A cherry-pick or revert seen only in the sequencer: the current
    /// commit was committed by hand, and more remain to be applied.
    pub fn sequencer_only(&self) -> bool {
        self.shown_by == "sequencer/todo"
    }
}

/// The operations in progress in this worktree, as `git status` reports
/// them: a rebase (git names it in its first line whatever else is in
/// progress); then the first of merge, am, cherry-pick, revert, in git's
/// order of precedence (none beside a rebase but a merge); then bisect,
/// which git reports beside any of them. Empty when none is.
pub fn operations(repo: &Repo) -> Reading<Vec<InProgress>> {
    read(repo.git_dir())
}

/// [`operations`] of the repository whose git directory is `git_dir` (a
/// submodule's).
pub fn operations_in(git_dir: &Path) -> Reading<Vec<InProgress>> {
    read(git_dir)
}

fn read(dir: &Path) -> Reading<Vec<InProgress>> {
    let exists = |name: &str| -> Reading<bool> {
        match std::fs::symlink_metadata(dir.join(name)) {
            Ok(_) => Ok(true),
            Err(e) if absent(&e) => Ok(false),
            Err(e) => Err(Unread::io(format!("could not read {}: {e}", dir.join(name).display()))),
        }
    };
    let mut out = Vec::new();
    let push = |out: &mut Vec<InProgress>, operation, shown_by| out.push(InProgress { operation, shown_by });
    let rebase = if exists("rebase-apply")? {
        Some(match exists("rebase-apply/applying")? {
            true => (Operation::Am, "rebase-apply/applying"),
            false => (Operation::Rebase, "rebase-apply"),
        })
    } else if exists("rebase-merge")? {
        Some(match exists("rebase-merge/interactive")? {
            true => (Operation::RebaseInteractive, "rebase-merge/interactive"),
            false => (Operation::Rebase, "rebase-merge"),
        })
    } else {
        None
    };
    let cherry_pick = holds_object_id(dir, "CHERRY_PICK_HEAD")?;
    let revert = holds_object_id(dir, "REVERT_HEAD")?;
    let sequencer = last_command(dir)?;
    // git's header line ("rebase in progress; onto ...") names a rebase
    // whatever else is in progress; its body names the first of merge, am,
    // rebase, cherry-pick, revert.
    let am = match rebase {
        Some((Operation::Am, by)) => Some(by),
        Some((op, by)) => {
            push(&mut out, op, by);
            None
        }
        None => None,
    };
    if exists("MERGE_HEAD")? {
        push(&mut out, Operation::Merge, "MERGE_HEAD");
    } else if let Some(by) = am {
        push(&mut out, Operation::Am, by);
    } else if rebase.is_some() {
        // Named above, and it hides a cherry-pick or revert, as in git.
    } else if cherry_pick {
        push(&mut out, Operation::CherryPick, "CHERRY_PICK_HEAD");
    } else if sequencer == Some(Operation::CherryPick) {
        push(&mut out, Operation::CherryPick, "sequencer/todo");
    } else if revert {
        push(&mut out, Operation::Revert, "REVERT_HEAD");
    } else if sequencer == Some(Operation::Revert) {
        push(&mut out, Operation::Revert, "sequencer/todo");
    }
    if exists("BISECT_LOG")? {
        push(&mut out, Operation::Bisect, "BISECT_LOG");
    }
    Ok(out)
}

/// Whether the pseudo-ref `name` exists and holds an object id, as git's
/// `repo_get_oid` requires before it reports the operation.
fn holds_object_id(dir: &Path, name: &str) -> Reading<bool> {
    match crate::file::read_optional(&dir.join(name)) {
        Ok(Some(bytes)) => {
            let text = String::from_utf8_lossy(&bytes);
            let word = text.split_whitespace().next().unwrap_or("");
            Ok(matches!(word.len(), 40 | 64) && word.bytes().all(|b| b.is_ascii_hexdigit()))
        }
        Ok(None) => Ok(false),
        Err(e) => Err(Unread::io(e.to_string())),
    }
}

/// What the sequencer's next command is (`sequencer/todo`'s first word):
/// `pick` (or `p`) is a cherry-pick, `revert` a revert, as git's
/// `sequencer_get_last_command` reads it; anything else, or no file, none.
fn last_command(dir: &Path) -> Reading<Option<Operation>> {
    let path = dir.join("sequencer").join("todo");
    let bytes = match crate::file::read_optional(&path) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(None),
        Err(e) => return Err(Unread::io(e.to_string())),
    };
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim_start_matches([' ', '\t', '\r', '\n']);
    let (word, rest) = text.split_at(text.find([' ', '\t', '\r', '\n']).unwrap_or(text.len()));
    if !rest.starts_with([' ', '\t']) {
        return Ok(None);
    }
    Ok(match word {
        "pick" | "p" => Some(Operation::CherryPick),
        "revert" => Some(Operation::Revert),
        _ => None,
    })
}

/// Whether a read failed because the file is not there (or a directory on
/// its path is a file).
pub(crate) fn absent(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::NotFound || e.raw_os_error() == Some(rustix::io::Errno::NOTDIR.raw_os_error())
}

#[cfg(test)]
mod tests;
