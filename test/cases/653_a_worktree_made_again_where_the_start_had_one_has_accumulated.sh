#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A linked worktree `.worktrees/review` (on its branch review) was there at
# the start. The task does its fix in main and pushes it, then reuses the
# review path for a scratch try: `git worktree remove .worktrees/review`,
# `git worktree add --detach .worktrees/review`, a commit there, left;
# then `git reflog expire --expire=now --all` (or with
# `core.logAllRefUpdates` off, no reflog written at all). The worktree the
# start saw was read by its name and path, then dated by its HEAD's
# reflog: emptied, it was taken for the start's, and `nothing-accumulated`
# passed, `done: complete`, while the scratch commit sat in a worktree made
# since the start, on no branch and no remote. `git worktree add` writes
# the worktree's `commondir` file, and no other command does: a worktree
# whose file was written since the start was made again since.

pushed_project
mkdir -p src tests
echo 'pub fn a() -> i32 { 1 }' > src/lib.rs
echo 'fn t() {}' > tests/a.rs
commit_all "code"
git push -q origin main
git branch -q review
git worktree add -q .worktrees/review review
# The worktree is written in an earlier second than the start's.
sleep 1
expect_run 0 md start "fix a"
echo 'pub fn a() -> i32 { 2 }' > src/lib.rs
echo 'fn t2() { assert_eq!(a(), 2) }' >> tests/a.rs
commit_all "fix a, with its test"
git push -q origin main
# A second apart from the start (its record keeps whole seconds).
sleep 1
# The start's worktree, locked, repaired and used since, is the start's.
git worktree lock .worktrees/review && git worktree unlock .worktrees/review
git worktree repair
git -C .worktrees/review status -s >/dev/null
git reflog expire --expire=now --all
expect_answer nothing-accumulated pass "No branch or linked worktree created since the start"

git worktree remove .worktrees/review
git worktree add -q --detach .worktrees/review
(cd .worktrees/review && echo 'try' > src/try.rs && git add src/try.rs && git commit -qm "a scratch try")
git reflog expire --expire=now --all
expect_open nothing-accumulated "worktree review at .*\.worktrees/review \(made again there since the start\)" owed
expect_run 10 md check

# With reflogs off, nothing is written to empty: the same.
git worktree remove --force .worktrees/review
git config core.logAllRefUpdates false
git worktree add -q --detach .worktrees/review
expect_open nothing-accumulated "worktree review at .*\(made again there since the start\)" owed

# The honest way: the scratch worktree removed (the start's is gone too,
# which is no accumulation).
git worktree remove .worktrees/review
expect_answer nothing-accumulated pass "No branch or linked worktree created since the start"
expect_run 0 md check
