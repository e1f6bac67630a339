#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A fix and its test were committed on a local branch before the start
# (an earlier session's, or a colleague's work on this machine), never
# pushed. The task makes nothing: `git merge --ff-only wip`, then `git
# push origin main`. HEAD's commits not on the start commit were counted
# as made since the start: `measurable` passed ("HEAD holds 1 commit made
# since the start") and the branch's test counted as the task's, `done:
# complete`. A commit a ref held at the start was made before it: now a
# local branch's tip at the start is read as a remote-tracking ref's was
# (test/cases/485), its commits not the task's, and the task's own commit
# over them counts.

mkdir -p src tests
echo 'pub fn a() -> i32 { 1 }' > src/lib.rs
echo 'fn t() {}' > tests/a.rs
exempt_forge
commit_all "initial"
with_origin

git switch -q -c wip
echo 'pub fn a() -> i32 { 2 }' > src/lib.rs
echo 'fn t2() { assert_eq!(a(), 2) }' >> tests/a.rs
commit_all "fix a, with its test"
git switch -q main
# A commit in the start's own second is read as made since (HEAD's reflog
# is read from the second before the start).
sleep 1

expect_run 0 md start "fix a"
git merge -q --ff-only wip
git push -q origin main
expect_open measurable "no commit the task made since the start" owed
expect_run 10 md check

# The honest way: the task's own change, with its test, committed over it.
echo 'pub fn a() -> i32 { 3 }' > src/lib.rs
echo 'fn t3() { assert_eq!(a(), 3) }' >> tests/a.rs
commit_all "fix a again"
git push -q origin main
expect_answer measurable pass "HEAD holds 1 commit made since the start"
expect_run 0 md check
