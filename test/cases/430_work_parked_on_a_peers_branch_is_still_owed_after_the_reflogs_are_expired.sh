#!/usr/bin/env bash
# A branch a peer worktree (there at the start) has checked out is a
# parallel agent's: its new commits are this task's only where this
# worktree's HEAD reflog names them. `git reflog expire --expire=now
# --all` empties that reflog: work committed here, parked on the peer's
# branch (`git update-ref`) and taken off HEAD was then on no remote and
# read pushed (the remote-tracking refs' reflogs are left: emptied, they
# make no ref evidence, case 301). Where this worktree's reflog was rewritten since the start,
# a commit on a peer's branch is the peer's only where the peer's own
# reflog shows it made there: the peer's own commit is still its own.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
echo "/.worktrees/" >> .git/info/exclude
commit_all "initial"
with_origin
git worktree add -q -b peer .worktrees/peer
expect_run 0 md start "a feature"

# The peer's own work, made in its worktree.
(cd .worktrees/peer && echo p > peer.txt && git add peer.txt && git commit -q -m "the peer's work")
# The task's own work, pushed; then this worktree's reflogs emptied.
commit_a_feature
git push -q origin main
git reflog expire --expire=now HEAD refs/heads/main
expect_answer pushed pass "on origin/main"

# Work made here, parked on the peer's branch, taken off HEAD; the local
# reflogs emptied: the peer's own commit is still its own.
git checkout -q --detach peer
echo w > work.txt
commit_all "work parked on the peer's branch"
git update-ref refs/heads/peer HEAD
git checkout -q main
git reflog expire --expire=now HEAD refs/heads/main refs/heads/peer
[ -z "$(git branch -r --contains peer)" ] || fail "the work is on a remote"
expect_open pushed "the branch peer holds 1 commit .*reflog of the worktree that has the branch checked out does not show them made there" owed
expect_run 10 md check
expect_contains "pushed=owed"

# The peer's reflog emptied too: nothing tells the two apart, both count.
git -C .worktrees/peer reflog expire --expire=now HEAD
expect_open pushed "the branch peer holds 2 commits" owed
