# The agent makes a linked worktree inside the project (`.worktrees/x`, as
# agents do), starts its task there, commits the work on x and does not
# push it; then its shell goes back to the project's root and it stops.
# The stop asked the task where the agent stands (none) and those around
# it (none): it went through, silently, with the task open. A task the
# stopping session started in another worktree of the repository (or in a
# submodule) is that session's to finish: the stop is blocked, naming it.
# A task another session started in its own worktree still does not hold
# this one (parallel agents).
source "$(dirname "$0")/../lib.sh" || exit 2

pushed_project --libsrc

# Another session's task in a worktree of its own: not this stop's.
git worktree add -q -b y .worktrees/y
(cd .worktrees/y && expect_run 0 env CLAUDECODE=1 CLAUDE_CODE_SESSION_ID=s-2 "$MAJORDOMUS" start "a peer's task" --owner-pid $$)
stop_hook "$repo"
[ -z "$(hook_decision)" ] || fail "expected another session's task in its own worktree not to hold this stop"

git worktree add -q -b x .worktrees/x
(
  cd .worktrees/x
  expect_run 0 env CLAUDECODE=1 CLAUDE_CODE_SESSION_ID=s-1 "$MAJORDOMUS" start "a feature" --owner-pid $$
  mkdir -p src tests && echo a > src/a.rs && echo t > tests/a.rs
  git add -A && git commit -qm "the feature"
  expect_run 10 md check
)

stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop from the project to be blocked while this session's task in .worktrees/x is open"
expect_contains "a feature"
expect_contains ".worktrees/x"
expect_not_contains "a peer's task"

# Ended there, the stop goes through.
expect_run 0 md -C .worktrees/x finish --outcome partial
stop_hook "$repo"
[ -z "$(hook_decision)" ] || fail "expected the stop to go through once the task was finished"

# The same for a task this session started inside a submodule.
git -c protocol.file.allow=always submodule add -q "$case_root/libsrc" lib 2>/dev/null
git commit -qm "add lib"
git push -q origin main
(
  cd lib
  expect_run 0 env CLAUDECODE=1 CLAUDE_CODE_SESSION_ID=s-1 "$MAJORDOMUS" start "the lib work" --owner-pid $$
  echo w > w.txt && git add w.txt && git commit -qm "the lib work"
)
stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop from the superproject to be blocked while this session's task in lib is open"
expect_contains "the lib work"
