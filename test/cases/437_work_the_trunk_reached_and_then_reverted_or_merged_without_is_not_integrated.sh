#!/usr/bin/env bash
# integrated asks that the trunk hold the task's work. A trunk whose
# history reaches HEAD was taken to hold it, whatever it did since: the
# work pushed to main and then reverted there by a colleague (`git revert
# HEAD`, pushed, fetched) read `done: complete`, as did a branch merged
# with `git merge -s ours` (its commits in the history, none of its
# changes in the tree). The trunk's tip must hold the work: a path the
# task changed that the tip holds as the start had it is undone.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
git clone -q "$case_root/origin.git" "$case_root/colleague"
commit_a_feature
git push -q origin main
expect_answer integrated pass "reaches HEAD"

# A colleague reverts it on the trunk; the worker fetches.
(cd "$case_root/colleague" && git pull -q && git revert --no-edit HEAD > /dev/null && git push -q)
git fetch -q
expect_open integrated "reaches HEAD, but its tip .* holds 2 paths HEAD changed since the start as the start had them: src/a.rs, tests/a.rs" owed
expect_run 10 md check
expect_contains "integrated=owed"
expect_contains "revert its revert"

# Landed again (the revert reverted): held.
(cd "$case_root/colleague" && git revert --no-edit HEAD > /dev/null && git push -q)
git fetch -q
expect_answer integrated pass "reaches HEAD"

# A branch merged without its changes.
git pull -q
git checkout -q -b feat
echo b > src/b.rs
commit_all "more"
git push -q origin feat
(cd "$case_root/colleague" && git fetch -q && git merge -q -s ours --no-edit origin/feat && git push -q)
git fetch -q
expect_open integrated "reaches HEAD, but its tip .* holds 1 path .*: src/b.rs" owed
