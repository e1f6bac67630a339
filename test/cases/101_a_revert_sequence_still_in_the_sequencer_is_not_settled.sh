# The same weakness through `git revert A B`: stopped on a
# conflict at the first, resolved with `git commit`; `git status` says
# "Revert currently in progress". settled is owed, naming it.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > f
echo other > g
commit_all "initial"
echo one > f
commit_all "f: one"
echo two > g
commit_all "g: two"
echo three > f
commit_all "f: three"
expect_run 0 md start "undo two commits"

git revert --no-edit HEAD~2 HEAD~1 > /dev/null 2>&1 && fail "setup: the revert did not stop on a conflict"
echo resolved > f
git add f
git -c core.editor=true commit -q --no-edit
git status | grep -q "Revert currently in progress" || fail "setup: git does not report the revert"
expect_open settled "revert" "owed"
expect_run 10 md check
