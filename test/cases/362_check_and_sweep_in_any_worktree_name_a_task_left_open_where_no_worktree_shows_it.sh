# A task is started in a linked worktree (`.worktrees/x`), its work
# committed there on x and not pushed, then the worktree is removed (`git
# worktree remove`, which deletes the record and its copy there). The stop
# hook was blocked by the copy kept in the common git directory (343), but
# `check` in the main worktree, whose own task was all done, answered
# `done: complete` (and `finish --outcome completed` was accepted), and
# `sweep` said nothing was left behind. Both read the same copy now:
# `nothing-accumulated` is owed naming the task and the worktree, with or
# without a task here, and `sweep` lists it as left behind (exit 10). The
# same for a task in a submodule `git submodule deinit -f` cleared (344).
source "$(dirname "$0")/../lib.sh" || exit 2

pushed_project --libsrc
git worktree add -q -b x .worktrees/x
(
  cd .worktrees/x
  expect_run 0 md start "a feature"
  mkdir -p src && echo a > src/a.rs
  git add -A && git commit -qm "the feature"
)
git worktree remove .worktrees/x

# With a task here, all of it done: not complete.
expect_run 0 md start "the main worktree's own task" --owner-pid $$
expect_run 0 md todo add "a note"
expect_run 0 md todo done 1
expect_run 10 md check
expect_contains "a feature"
expect_open nothing-accumulated 'a feature.*linked worktree x.*never finished' owed
expect_run 10 md finish --outcome completed
# An acknowledgement covers paths and branches, never a task.
md ack nothing-accumulated --why "a peer's worktree" >/dev/null 2>&1 || true
expect_open nothing-accumulated 'a feature' owed

expect_run 10 md sweep
expect_contains "a feature"
expect_contains "1 left behind"
expect_run 10 md sweep --json
expect_contains '"orphaned"'

# Without a task here: the unknown answer names it.
expect_run 0 md finish --outcome partial
expect_run 10 md check
expect_open nothing-accumulated 'a feature.*worktree x' unknown

# Put back under its name and ended there: nothing is held any more.
git worktree add -q .worktrees/x x
expect_run 0 md -C .worktrees/x finish --outcome partial
git worktree remove .worktrees/x
expect_run 10 md check
expect_not_contains "a feature"
expect_run 0 md sweep

# A task in a submodule whose working tree deinit cleared.
task_left_in_deinit_lib
expect_run 10 md check
expect_open nothing-accumulated 'lib work.*submodule lib' unknown
expect_run 10 md sweep
expect_contains "the lib work"
