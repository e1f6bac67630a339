#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The task pushes feat; the forge merges it and deletes the branch, as
# forges do on merge; `git pull` (git does not prune by default) leaves
# origin/feat here. nothing-accumulated is owed for the ref it still sees,
# and its remedy was `git push origin --delete feat`, which git refuses
# ("remote ref does not exist"), deleting nothing: the question stayed owed
# whatever was run. The remedy now prunes where the delete finds nothing,
# and still deletes a branch the remote keeps (origin across a network:
# read only through git).

with_daemon_origin
expect_run 0 md start "a feature"
commit_a_feature feat
git push -q -u origin feat
git clone -q "$project" "$case_root/forge"
(cd "$case_root/forge" && git push -q origin origin/feat:main && git push -q origin --delete feat)
git checkout -q main
git pull -q --ff-only
git branch -q -d feat
[ -z "$(git ls-remote origin refs/heads/feat)" ] || fail "setup: origin still has feat"
git rev-parse -q --verify refs/remotes/origin/feat > /dev/null || fail "setup: the pull pruned origin/feat"

expect_open nothing-accumulated "origin's branch feat" owed
follow_remedy nothing-accumulated
expect_answer nothing-accumulated pass "No branch or linked worktree created since the start"

# Two more, landed: one the forge deleted, one the remote still has. The
# line takes each off, the delete of the one gone not stopping the other.
git push -q origin HEAD:gone HEAD:keep
(cd "$case_root/forge" && git fetch -q && git push -q origin --delete gone)
git fetch -q origin
expect_open nothing-accumulated "origin's branch gone.*origin's branch keep|origin's branch keep.*origin's branch gone" owed
follow_remedy nothing-accumulated
[ -z "$(git ls-remote origin refs/heads/keep refs/heads/gone)" ] || fail "the remedy left a branch on origin: $(git ls-remote origin)"
expect_answer nothing-accumulated pass "No branch or linked worktree created since the start"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
