# A start continues the task its worktree left open (335), moved or not
# (339). Which worktree the archive was is what decides, not whether the
# root it ended at is there: that root can be taken since by another
# worktree (`git worktree move wt wt2; git worktree add wt`) or another
# repository (`mv repo repo-old; git clone ORIGIN repo`), and the start in
# wt2 or repo-old, the same worktree moved, was a new task that inherited
# the unpushed commit: with a todo added and done, `done: complete`. The
# archive is in the repository's common git directory and names the
# worktree by what a move keeps (the main one, or a linked one's admin
# name): that worktree continues it, wherever it is; the one standing at
# the old root is another, a task of its own. A worktree removed and added
# again where it was takes back its name, and is that worktree again: it
# continues the task it left open, as it holds its stop (343).
source "$(dirname "$0")/../lib.sh" || exit 2

# The main worktree moved aside, a fresh clone at its old path.
start_on_origin
echo w > w.txt
commit_all "the work, not pushed"
expect_run 10 md check
expect_run 0 md finish --outcome failed
git switch -q --detach origin/main
cd "$case_root"
mv repo repo-old
git clone -q "$case_root/origin.git" repo
(
  cd repo
  expect_run 0 md start "a fresh clone's own task"
  expect_not_contains "continues"
)
cd repo-old
expect_run 0 md start "another go"
started=$out
expect_run 0 md todo add "look again"
expect_run 0 md todo done 1
expect_run 10 md check
expect_open pushed "main"
case "$started" in *'continues "a feature"'*) ;; *) out=$started; fail "the start in the project moved aside does not continue its task" ;; esac
expect_run 0 md finish --outcome partial

# A linked worktree: its own task, not the main worktree's left open.
git worktree add -q "$case_root/wt" -b wt
cd "$case_root/wt"
expect_run 0 md start "in a worktree"
expect_not_contains "continues"
echo v > v.txt
commit_all "work in the worktree"
expect_run 10 md check
expect_run 0 md finish --outcome failed
git switch -q --detach origin/main

# Moved, and a new worktree added at its old path: that one is a task of
# its own; the one moved continues its task.
cd "$case_root/repo-old"
git worktree move "$case_root/wt" "$case_root/wt2"
git worktree add -q "$case_root/wt" -b other
cd "$case_root/wt"
expect_run 0 md start "a new worktree at the old path"
expect_not_contains "continues"
cd "$case_root/wt2"
expect_run 0 md start "in a worktree, again"
started=$out
expect_run 0 md todo add "look again"
expect_run 0 md todo done 1
expect_run 10 md check
expect_open pushed "wt"
case "$started" in *'continues "in a worktree"'*) ;; *) out=$started; fail "the start in the moved worktree does not continue its task" ;; esac

# The new worktree's task left open, the worktree removed and added again
# where it was: git gives it back its name, and it continues that task.
cd "$case_root/wt"
echo o > o.txt
commit_all "work in the new worktree"
expect_run 0 md finish --outcome failed
git switch -q --detach origin/main
cd "$case_root/repo-old"
git worktree remove --force "$case_root/wt"
git worktree add -q "$case_root/wt" other
cd "$case_root/wt"
expect_run 0 md start "the new worktree, put back"
expect_contains 'continues "a new worktree at the old path"'
expect_run 10 md check
expect_open pushed "other"
