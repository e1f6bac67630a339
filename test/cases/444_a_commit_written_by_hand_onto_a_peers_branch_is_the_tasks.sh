#!/usr/bin/env bash
# A branch a peer worktree (there at the start) has checked out is the
# peer's: its new commits are this task's only where this worktree made
# them. A commit written by hand (`git commit-tree`, as history-rewriting
# tools do) and put on the peer's branch with `git update-ref` moves no
# HEAD here, so HEAD's reflog did not name it, and it read as the peer's.
# The peer's own reflog is asked: a commit it does not show made there is
# this task's.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "/.worktrees/" >> .git/info/exclude
echo base > README
exempt_forge
commit_all "initial"
with_origin
git worktree add -q .worktrees/peer -b peer
expect_run 0 md start "the feature"
commit_a_feature
git push -q origin main
expect_answer pushed pass "on origin/main"

echo extra > src/extra.rs
git add src/extra.rs
tree=$(git write-tree)
git rm -q --cached src/extra.rs
rm src/extra.rs
c=$(git commit-tree "$tree" -p peer -m "extra work")
git update-ref refs/heads/peer "$c"
expect_open pushed "the branch peer holds 1 commit .*does not show them made there" owed

# The peer's own commit, made in its worktree, stays its own.
git update-ref refs/heads/peer "$(git rev-parse "$c^")"
(cd .worktrees/peer && echo p > peer.txt && git add peer.txt && git commit -q -m "the peer's work")
expect_answer pushed pass "on origin/main"
