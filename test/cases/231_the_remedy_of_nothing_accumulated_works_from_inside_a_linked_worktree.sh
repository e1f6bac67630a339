# nothing-accumulated's remedy, taken from check --json and run as written
# inside a linked worktree (where the trunk's branch is checked out in the
# main worktree, so git switch main fails), removes the task's own branch
# once its work has landed; the question then passes.
source "$(dirname "$0")/../lib.sh" || exit 2

echo one > a.txt
commit_all "initial"
with_origin
git worktree add -q -b wt-task "$case_root/wt"
cd "$case_root/wt"
expect_run 0 md start "the worktree's task"

echo work >> a.txt
commit_all "the task's work"
git push -q -u origin wt-task
# The work lands on the trunk.
git push -q origin wt-task:main
git fetch -q origin
expect_open nothing-accumulated "wt-task" "owed"
follow_remedy nothing-accumulated
expect_status nothing-accumulated pass
git show-ref --verify --quiet refs/heads/wt-task && fail "the branch is still there"
true
