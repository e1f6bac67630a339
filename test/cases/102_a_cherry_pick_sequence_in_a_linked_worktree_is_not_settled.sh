# In a linked worktree: its sequencer lives under
# .git/worktrees/NAME/, and a task started there reads that one.
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
git worktree add -q "$case_root/wt" -b work
cd "$case_root/wt"
expect_run 0 md start "take side's work"

git cherry-pick side~1 side > /dev/null 2>&1 && fail "setup: the cherry-pick did not stop on a conflict"
echo resolved > f
git add f
git -c core.editor=true commit -q --no-edit
git status | grep -q "Cherry-pick currently in progress" || fail "setup: git does not report the cherry-pick"
expect_open settled "cherry-pick" "owed"
