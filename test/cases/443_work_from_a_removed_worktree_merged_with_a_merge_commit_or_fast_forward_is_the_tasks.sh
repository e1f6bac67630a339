#!/usr/bin/env bash
# Honest work done in a linked worktree made for the task, pushed as a pull
# request's branch, merged on the forge with a merge commit (or
# fast-forwarded) and the branch deleted; the worktree removed, main
# pulled, the branch deleted here, `git fetch --prune`. No reflog names the
# task's commit any more, and it was read as a fetch's: `measurable` owed
# ("no commit the task made"), and the change read as empty. A loose commit
# written since the start under this repository's own address is the
# task's, wherever it is now: done.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src tests
echo 'def add(a, b): return a + b' > src/calc.py
echo 'test add' > tests/test_calc.py
start_on_origin
git clone -q "$case_root/origin.git" "$case_root/forge"

land_from_a_worktree() { # MERGE_ARGS...
  git worktree add -q "$case_root/wt" -b feat
  (cd "$case_root/wt" && echo "# $1" >> src/calc.py && echo "test $1" >> tests/test_calc.py &&
    git commit -qam "work ($1)" && git push -q -u origin feat)
  (cd "$case_root/forge" && git pull -q && git fetch -q && git merge -q "$@" origin/feat &&
    git push -q origin main && git push -q origin --delete feat)
  git worktree remove "$case_root/wt"
  git pull -q
  git branch -q -D feat
  git fetch -q --prune
}

land_from_a_worktree --no-ff -m "Merge pull request #1"
expect_answer measurable pass "made since the start"
expect_run 0 md check
expect_contains "done: complete"

land_from_a_worktree --ff-only
expect_run 0 md check
expect_contains "done: complete"
