#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A task started in the main worktree, its work committed and pushed but
# an edit and a new file left there; a linked worktree beside it (made
# before the start), detached at the task's commit, and the state
# directory copied into it (`cp -a ../repo/.ai/local/state .ai/local/`).
# Read there, the record was believed (no copy of it in that worktree's
# git directory, as a record from before copies were kept): `committed`
# and `no-untracked` judged the linked tree's clean files, `done:
# complete`, and `finish --outcome completed` archived the task as done
# while its work stood uncommitted where it started. The record's start
# root is another working tree of this repository: it is that tree's.

mkdir -p src tests
echo 'fn a() {}' > src/lib.rs
echo a > tests/a.txt
commit_all "initial"
with_origin; exempt_forge
commit_all pol; git push -q
git worktree add -q --detach "$case_root/beside"
expect_run 0 md start "b"
echo 'fn b() {}' >> src/lib.rs
echo b >> tests/a.txt
commit_all "b"
git push -q origin main
echo more >> tests/a.txt
echo new > src/new.rs
main=$PWD

cd "$case_root/beside"
git switch -q --detach main
mkdir -p .ai/local
cp -a "$main/.ai/local/state" .ai/local/
expect_run 10 md check
expect_open committed "copied here from $main, another working tree of this repository" unknown
expect_contains "rm .ai/local/state/task.json"
expect_run 2 md finish --outcome completed

# The task is read where it started, and owes its work there.
cd "$main"
expect_open committed "tests/a.txt" owed
expect_open no-untracked "src/new.rs" owed

# The honest way out: the copy removed, the work committed where it is.
cd "$case_root/beside"
rm .ai/local/state/task.json
cd "$main"
git add src/new.rs && git commit -qam "the rest" && git push -q origin main
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
expect_run 0 md finish --outcome completed
