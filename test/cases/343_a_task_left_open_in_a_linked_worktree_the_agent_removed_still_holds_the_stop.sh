# The task is started in a linked worktree made inside the project
# (`.worktrees/x`, as agents do), its work committed there on branch x and
# not pushed; then the worktree is removed (`git worktree remove
# .worktrees/x`, which deletes its git directory: the task record and its
# copy there went with it). The stop from the project found no task
# anywhere and went through, silently, with the task never finished. The
# start kept a second copy in the common git directory: the stop is
# blocked, naming the task and the worktree, until the worktree is put
# back under its name and the task ended there.
source "$(dirname "$0")/../lib.sh" || exit 2

pushed_project
git worktree add -q -b x .worktrees/x
(
  cd .worktrees/x
  expect_run 0 md start "a feature"
  mkdir -p src tests && echo a > src/a.rs && echo t > tests/a.rs
  git add -A && git commit -qm "the feature"
  expect_run 10 md check
)
git worktree remove .worktrees/x

stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop to be blocked while the task left in .worktrees/x is unfinished"
expect_contains "a feature"
expect_contains "worktree x"

# Put back under its name, the worktree keeps no copy of its own: the
# stop is still blocked, from the project and from there.
git worktree add -q .worktrees/x x
stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop to be blocked while the worktree put back has not ended its task"
stop_hook "$repo/.worktrees/x"
[ "$(hook_decision)" = "block" ] || fail "expected the stop from the worktree put back to be blocked"

# There the task is in view, its record gone: finishing it ends the blocks.
expect_run 0 md -C .worktrees/x finish --outcome partial
stop_hook "$repo"
[ -z "$(hook_decision)" ] || fail "expected the stop to go through once the task was finished"

# A worktree whose directory alone is deleted (git still lists it) holds
# the stop the same way.
git worktree add -q -b y .worktrees/y
(cd .worktrees/y && expect_run 0 md start "another feature")
rm -rf .worktrees/y
stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop to be blocked while the task left in .worktrees/y is unfinished"
expect_contains "another feature"
