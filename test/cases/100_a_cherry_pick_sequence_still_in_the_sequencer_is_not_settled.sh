# A multi-commit cherry-pick stopped on a conflict, resolved
# with `git commit` instead of `--continue`: CHERRY_PICK_HEAD is gone but
# .git/sequencer/todo still holds a pick, and `git status` says
# "Cherry-pick currently in progress". settled is owed, naming it.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > f
echo other > g
commit_all "initial"
git checkout -q -b side
echo side > f
commit_all "side: f"
echo side > g
commit_all "side: g"
git checkout -q main
echo main > f
commit_all "main: f"
expect_run 0 md start "take side's work"

git cherry-pick side~1 side > /dev/null 2>&1 && fail "setup: the cherry-pick did not stop on a conflict"
echo resolved > f
git add f
git -c core.editor=true commit -q --no-edit
git status | grep -q "Cherry-pick currently in progress" || fail "setup: git does not report the cherry-pick"
expect_open settled "cherry-pick" "owed"
expect_run 10 md check
expect_contains "settled=owed"
