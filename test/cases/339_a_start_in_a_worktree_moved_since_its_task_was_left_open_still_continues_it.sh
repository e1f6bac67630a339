# A start continues the task its working tree left open (test/cases/335),
# found in the archive by the root it ended at. Moving the project's
# directory (`mv`), or a linked worktree (`git worktree move`), gave the
# same worktree another root: the next start found no task left open,
# inherited the unpushed work, and the next check said `done: complete`.
# The archive also names which worktree of the repository it was, which a
# move keeps: where the root it ended at is gone, that worktree continues it.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
commit_a_feature side
git checkout -q main
expect_run 10 md check
expect_run 0 md finish --outcome failed

# The project's directory moved.
cd "$case_root"
mv repo moved
cd moved
expect_run 0 md start "another go"
started=$out
expect_run 0 md todo add "look again"
expect_run 0 md todo done 1
expect_run 10 md check
expect_open pushed "side"
case "$started" in *"continues"*) ;; *) out=$started; fail "a start in the moved project does not continue its task" ;; esac
git branch -q -D side
expect_run 0 md finish --outcome partial

# A linked worktree moved with git worktree move.
git worktree add -q "$case_root/wt" -b wt
cd "$case_root/wt"
expect_run 0 md start "in a worktree"
echo w > w.txt
commit_all "work in the worktree"
expect_run 0 md finish --outcome failed
cd "$case_root/moved"
git worktree move "$case_root/wt" "$case_root/wt2"
cd "$case_root/wt2"
expect_run 0 md start "in a worktree, again"
started=$out
expect_run 10 md check
expect_open pushed "not on|no remote|wt"
case "$started" in *"continues \"in a worktree\""*) ;; *) out=$started; fail "a start in the moved worktree does not continue its task" ;; esac
