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
//!
//! A submodule's task is kept the same way by its git directory
//! (`.git/modules/NAME/majordomus/task.json`), which `git submodule deinit
//! -f` leaves while it clears the submodule's working tree, the record
//! with it: a stop is blocked while such a copy names a task whose
//! working tree holds no record (test/cases/344).

use std::path::Path;

use majordomus_records::hook::{HookKey, HookState};
use majordomus_records::paths::GIT_STATE_DIR;
use majordomus_records::{StatePaths, TaskRecord};

use super::protocol::Verdict;
use super::stop::{decide_unmeasured, unmeasured_state};
use crate::workspace::Workspace;

/// A task left open in a linked worktree that is gone, or in a submodule
/// whose working tree no longer holds its record.
#[derive(Debug)]
pub struct Orphan {
    /// The worktree's name, as git named it (its path's last part), or the
    /// submodule's name under the git directory's `modules/`.
    pub name: String,
    /// A submodule's: the path of its working tree, where one is configured.
    pub submodule: Option<Option<String>>,
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
            out.push(Orphan { name, submodule: None, record: TaskRecord::load(&path).ok().flatten() });
        }
    }
    modules(ws.repo.common_dir(), "", 0, &mut out);
    out
}

/// The submodules under `dir`'s `modules/` (nested ones too, to a depth)
/// whose git directory keeps a task record's copy while their working
/// tree holds no record. One directory listing where there are none.
fn modules(dir: &Path, prefix: &str, depth: usize, out: &mut Vec<Orphan>) {
    let Ok(entries) = std::fs::read_dir(dir.join("modules")) else { return };
    for entry in entries.flatten() {
        let (git_dir, Some(part)) = (entry.path(), entry.file_name().to_str().map(str::to_string)) else { continue };
        let name = format!("{prefix}{part}");
        let copy = git_dir.join(GIT_STATE_DIR).join("task.json");
        if copy.exists() {
            // The working tree its configuration names (`core.worktree`,
            // which `deinit` removes), read from the file, as git reads it.
            let root = git2::Config::open(&git_dir.join("config"))
                .ok()
                .and_then(|c| c.get_path("core.worktree").ok())
                .map(|w| git_dir.join(w))
                .and_then(|w| w.canonicalize().ok());
            let held = root.as_ref().is_some_and(|r| StatePaths::new(r).task().exists());
            if !held {
                out.push(Orphan {
                    name: name.clone(),
                    submodule: Some(root.map(|r| r.display().to_string())),
                    record: TaskRecord::load(&copy).ok().flatten(),
                });
            }
        }
        if depth < 4 {
            modules(&git_dir, &format!("{name}/"), depth + 1, out);
        }
    }
}

/// Blocks the stop for `orphan`, up to the block limit, its loop guard kept
/// beside the stop's own in the state directory of `ws` (under a name the
/// guards' pruning leaves alone: it counts for this worktree, not a task).
pub fn verdict(ws: &Workspace, orphan: &Orphan, key: &HookKey) -> Verdict {
    let block_limit =
        ws.policy().map_or(majordomus_records::policy::DEFAULT_BLOCK_LIMIT, |policy| policy.hook.block_limit);
    let name: String = orphan.name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    let kind = if orphan.submodule.is_some() { "submodule" } else { "worktree" };
    let guard = ws.paths.hook_dir().join(format!("{}.{kind}-{name}", key.file_name()));
    let previous = HookState::load(&guard).ok().flatten();
    let esc = |s: &str| majordomus_records::text::escape(s).into_owned();
    let place = match &orphan.submodule {
        None => format!("the linked worktree {}", esc(&orphan.name)),
        Some(_) => format!("the submodule {}", esc(&orphan.name)),
    };
    let what = match &orphan.record {
        Some(r) => format!("the task {:?} (started {}) in {place}", esc(&r.task), esc(&r.started_at)),
        None => format!("a task in {place}"),
    };
    if let Some(root) = &orphan.submodule {
        let root = root.as_deref().map_or_else(|| esc(&orphan.name), esc);
        let problem = format!(
            "{what} was never finished, and its working tree, {root}, holds no task record (`git submodule \
             deinit` clears it; the copy in its git directory, modules/{}/{GIT_STATE_DIR}/task.json, says so)",
            esc(&orphan.name)
        );
        let remedy = format!(
            "put its working tree back (`git submodule update --init`), then end the task there with \
             `majordomus -C {root} finish --outcome partial` (or blocked, failed)"
        );
        return block(ws, &guard, previous.as_ref(), key, block_limit, &problem, &remedy);
    }
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
    block(ws, &guard, previous.as_ref(), key, block_limit, &problem, &remedy)
}

/// The block (or, past the limit, the stop let through saying so), its
/// count kept in `guard`.
fn block(
    ws: &Workspace,
    guard: &Path,
    previous: Option<&HookState>,
    key: &HookKey,
    block_limit: u32,
    problem: &str,
    remedy: &str,
) -> Verdict {
    let (verdict, blocks) = decide_unmeasured(problem, remedy, previous, block_limit);
    let state = unmeasured_state(key, blocks, "done: unknown (a task's working tree is gone)");
    // Not written is no way out: the verdict stands.
    let _ = ws.write_state(guard, &state.to_bytes());
    verdict
}
