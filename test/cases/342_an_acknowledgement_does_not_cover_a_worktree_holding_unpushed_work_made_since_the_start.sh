# The task makes a linked worktree at a detached HEAD (`git worktree add
# --detach ../w`) and commits its work there: the commits are on no branch,
# kept only by the worktree, which nothing-accumulated names. `majordomus
# ack nothing-accumulated --why "a peer's worktree"` covered it (no branch
# was made, and this worktree's HEAD reflog names none of the work), and
# the task read done with its work on no remote. A worktree whose HEAD
# holds commits no remote holds is not another's to acknowledge, as a
# branch made since the start holding them is not (test/cases/329): the
# ack is refused, the question owed.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
expect_run 0 md todo add "the feature"
expect_run 0 md todo done 1

git worktree add -q --detach "$case_root/w"
(cd "$case_root/w" && mkdir -p src tests && echo a > src/a.rs && echo t > tests/a.rs && git add -A && git commit -qm "the feature, on no branch")
expect_open nothing-accumulated "worktree w" "owed"
expect_run 2 md ack nothing-accumulated --why "a peer's worktree"
expect_contains "worktree w"
expect_open nothing-accumulated "worktree w" "owed"
expect_run 10 md check

# Once its commits are on the remote, the worktree is acknowledgeable
# (a peer's, for all that can be told).
(cd "$case_root/w" && git push -q origin HEAD:refs/heads/side && git fetch -q origin)
expect_run 0 md ack nothing-accumulated --why "a peer's worktree"
expect_answer nothing-accumulated "exempt" "worktree w"

# A worktree at a commit a remote already holds is acknowledgeable as ever.
git worktree add -q --detach "$case_root/v" origin/main
expect_open nothing-accumulated "worktree v" "owed"
expect_run 0 md ack nothing-accumulated --why "a peer's worktree"
expect_answer nothing-accumulated "exempt" "worktree v"
