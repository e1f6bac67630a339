//! The stop blocked by a task left open where no worktree shows it: in a
//! linked worktree that is gone (test/cases/343), or in a submodule whose
//! working tree `git submodule deinit -f` cleared (test/cases/344). The
//! reading, and the words for what is left and how it is ended, are the
//! invariant's (`crates/majordomus-invariant/src/orphans.rs`), which
//! `check` and `sweep` read too; here only the block and its count.

use std::path::Path;

pub use majordomus_invariant::orphans::Orphan;
use majordomus_records::hook::{HookKey, HookState};

use super::protocol::Verdict;
use super::stop::{decide_unmeasured, unmeasured_state};
use crate::workspace::Workspace;

/// Blocks the stop for `orphan`, up to the block limit, its loop guard kept
/// beside the stop's own in the state directory of `ws` (under a name the
/// guards' pruning leaves alone: it counts for this worktree, not a task).
pub fn verdict(ws: &Workspace, orphan: &Orphan, key: &HookKey) -> Verdict {
    let block_limit =
        ws.policy().map_or(majordomus_records::policy::DEFAULT_BLOCK_LIMIT, |policy| policy.hook.block_limit);
    let name: String = orphan.name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    let kind = orphan.kind();
    let guard = ws.paths.hook_dir().join(format!("{}.{kind}-{name}", key.file_name()));
    let previous = HookState::load(&guard).ok().flatten();
    block(ws, &guard, previous.as_ref(), key, block_limit, &orphan.problem(), &orphan.remedy())
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
