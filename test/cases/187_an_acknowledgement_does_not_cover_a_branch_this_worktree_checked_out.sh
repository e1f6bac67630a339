# README, "Bookkeeping, acknowledgements, the score and the sweep", through nothing-accumulated: the task made a branch with
# `git checkout -b mine` (HEAD's reflog shows it), went back to main, and
# acknowledges the branch as a peer's. The reflog shows the task made it:
# the ack does not cover it. (A branch a peer made, never checked out
# here, is still acknowledged: test/cases/053.)
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo base > README
commit_all "initial"
expect_run 0 md start "a"
git checkout -q -b mine
echo a > a.rs
commit_all "a"
git checkout -q main
git merge -q --ff-only mine
expect_open nothing-accumulated "mine" "owed"

md ack nothing-accumulated --why "the reviewer's branch" > /dev/null 2>&1 || true
expect_open nothing-accumulated "mine" "owed"
expect_run 10 md check
