//! Tasks whose linked worktree is gone: `git worktree remove` deletes the
//! worktree and its own git directory, and with them the task record and
//! the copy `start` keeps there (`.git/worktrees/NAME/majordomus/`). A
//! stop from the main worktree, or any worktree left, then found no task
//! and went through, the task never finished and its work unmeasured
//! (test/cases/343). So `start` in a linked worktree keeps a second copy
//! in the common git directory, by the worktree's name
//! (`majordomus/worktrees/NAME.json`, removed by `finish`), and a stop in
//! any worktree of the repository is blocked while a copy there names a
//! worktree git no longer has, whose directory is gone, or that keeps no
//! copy of its own (put back under its name: `git worktree add DIR/NAME
//! BRANCH`). There the task is in view again, its record gone, and
//! `majordomus finish` ends it.

use std::path::Path;

use majordomus_records::hook::{HookKey, HookState};
use majordomus_records::paths::GIT_STATE_DIR;
use majordomus_records::{StatePaths, TaskRecord};

use super::protocol::Verdict;
use super::stop::{decide_unmeasured, unmeasured_state};
use crate::workspace::Workspace;

/// A task left open in a linked worktree that is gone.
#[derive(Debug)]
pub struct Orphan {
    /// The worktree's name, as git named it (its path's last part).
    pub name: String,
    /// The task record's copy, where it still reads.
    pub record: Option<TaskRecord>,
}

/// The tasks of the repository of `ws` left open in linked worktrees that
/// are gone. Read only where copies are kept at all (one directory listing
/// otherwise).
pub fn orphans(ws: &Workspace) -> Vec<Orphan> {
    let mut out = Vec::new();
    for (name, path) in StatePaths::worktree_copies(ws.repo.common_dir()) {
        // There, with the copy in its own git directory: its task is its
        // own stop's to judge. Put back under its name, it has no copy of
        // its own, and is still this one.
        let own = ws.repo.common_dir().join("worktrees").join(&name).join(GIT_STATE_DIR).join("task.json");
        let there = own.exists() && ws.repo.git.find_worktree(&name).is_ok_and(|w| w.validate().is_ok());
        if !there {
            out.push(Orphan { name, record: TaskRecord::load(&path).ok().flatten() });
        }
    }
    out
}

/// Blocks the stop for `orphan`, up to the block limit, its loop guard kept
/// beside the stop's own in the state directory of `ws` (under a name the
/// guards' pruning leaves alone: it counts for this worktree, not a task).
pub fn verdict(ws: &Workspace, orphan: &Orphan, key: &HookKey) -> Verdict {
    let block_limit =
        ws.policy().map_or(majordomus_records::policy::DEFAULT_BLOCK_LIMIT, |policy| policy.hook.block_limit);
    let name: String = orphan.name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    let guard = ws.paths.hook_dir().join(format!("{}.worktree-{name}", key.file_name()));
    let previous = HookState::load(&guard).ok().flatten();
    let what = match &orphan.record {
        Some(r) => format!(
            "the task {:?} (started {}) in the linked worktree {}",
            majordomus_records::text::escape(&r.task),
            majordomus_records::text::escape(&r.started_at),
            majordomus_records::text::escape(&orphan.name)
        ),
        None => format!("a task in the linked worktree {}", majordomus_records::text::escape(&orphan.name)),
    };
    let branch = orphan.record.as_ref().and_then(|r| r.branch.clone()).unwrap_or_else(|| "BRANCH".to_string());
    let problem = format!(
        "{what} was never finished, and that worktree is gone (`git worktree remove` deletes its task record \
         with it; the copy in {} says so)",
        Path::new(GIT_STATE_DIR).join("worktrees").join(format!("{}.json", orphan.name)).display()
    );
    let remedy = format!(
        "put the worktree back under its name (git names a worktree by its directory: `git worktree add DIR/{} {}`), \
         then end the task there with `majordomus finish --outcome partial` (or blocked, failed)",
        orphan.name, branch
    );
    let (verdict, blocks) = decide_unmeasured(&problem, &remedy, previous.as_ref(), block_limit);
    let state = unmeasured_state(key, blocks, "done: unknown (a task's worktree is gone)");
    // Not written is no way out: the verdict stands.
    let _ = ws.write_state(&guard, &state.to_bytes());
    verdict
}
