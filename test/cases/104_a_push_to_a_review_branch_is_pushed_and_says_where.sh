# `git push origin HEAD:review/x` leaves the commit on
# origin/review/x: a commit reachable from any remote-tracking ref of a
# remote that counts as evidence is pushed, and the evidence says where.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a change for review"
git checkout -q -b feature
echo a > a.rs
commit_all "feature"
expect_open pushed "origin/main" "owed"

git push -q origin HEAD:review/x
git rev-parse -q --verify refs/remotes/origin/review/x > /dev/null || fail "setup: no origin/review/x"
expect_answer pushed "pass" "review/x"
