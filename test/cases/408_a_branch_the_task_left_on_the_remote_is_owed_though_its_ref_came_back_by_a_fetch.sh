#!/usr/bin/env bash
# nothing-accumulated counts a branch a push from here made on a remote
# since the start (test/cases/400), told by its remote-tracking ref's
# reflog beginning with the push. `git branch -dr origin/feat` (taken for
# deleting the remote branch, which it does not) followed by any `git
# fetch`, or a push by URL (`git push ../origin.git HEAD:backup/y`, which
# writes no remote-tracking ref) followed by a fetch, leaves the ref's
# reflog beginning with a fetch: the branch read as a colleague's, and
# `done: complete` while it stayed on origin. A remote branch new since
# the start whose tip is a commit this worktree made is the task's,
# however its ref came; a colleague's, with a commit of theirs on top, is
# not.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "a feature"

merge_a_feature_through_feat
git branch -q -dr origin/feat
git fetch -q origin
git ls-remote origin | grep -q 'refs/heads/feat' || fail "setup: origin lost feat"
expect_open nothing-accumulated "origin's branch feat" owed
expect_run 10 md check
git push -q origin --delete feat
expect_run 0 md check

echo b > src/b.rs
commit_all "more"
git push -q origin main
git push -q "$case_root/origin.git" HEAD:refs/heads/backup/y
git fetch -q origin
expect_open nothing-accumulated "origin's branch backup/y" owed

# A colleague's branch from the task's commit, with a commit of theirs.
git push -q origin --delete backup/y
git clone -q "$case_root/origin.git" "$case_root/colleague"
(cd "$case_root/colleague" && git checkout -q -b theirs && echo c > c.txt && git add c.txt && git commit -qm c && git push -q origin theirs)
git fetch -q origin
expect_run 0 md check
