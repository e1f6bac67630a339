# A branch whose upstream was already gone before the task
# would make upstream-alive owed, the only open question, so every task in
# such a repository would fail. An upstream already gone at the start is
# inherited: named in the evidence, not counted.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
git checkout -q -b old
git push -q -u origin old
git push -q origin --delete old
git checkout -q main
expect_run 0 md start "a"
expect_answer upstream-alive "pass" "old"
# One gone since the start is still counted.
git checkout -q -b new
git push -q -u origin new
git push -q origin --delete new
git checkout -q main
expect_open upstream-alive "new" "owed"
