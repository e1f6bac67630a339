# The task makes a linked worktree on a new branch (`git worktree add -b
# x ../w`), commits there and removes the worktree: branch x holds
# unpushed work, and nothing-accumulated is owed naming it. `majordomus ack
# nothing-accumulated --why "a peer's branch"` covered it (this worktree
# never checked x out, and its HEAD reflog names none of the work), and
# the task read done. A branch made since the start holding commits no
# remote holds, that no worktree there at the start has checked out, is
# not another's to acknowledge: the ack is refused, the question owed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git worktree add -q -b peer "$case_root/peer"
expect_run 0 md start "a feature"
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1

git worktree add -q -b x "$case_root/w"
(cd "$case_root/w" && echo w > w.rs && git add w.rs && git commit -qm "work in a side worktree")
git worktree remove "$case_root/w"
expect_open nothing-accumulated "branch x" "owed"
expect_run 2 md ack nothing-accumulated --why "a peer's branch"
expect_contains "branch x"
expect_open nothing-accumulated "branch x" "owed"
expect_run 10 md check

# A branch a peer made in its own worktree, there at the start, and has
# checked out, is the peer's to acknowledge.
git branch -q -D x
(cd "$case_root/peer" && git switch -q -c peer-2 && echo p > p.rs && git add p.rs && git commit -qm "the peer's work")
expect_open nothing-accumulated "branch peer-2" "owed"
expect_run 0 md ack nothing-accumulated --why "the peer's branch"
expect_answer nothing-accumulated "exempt" "peer-2"
