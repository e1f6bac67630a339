#!/usr/bin/env bash
# nothing-accumulated named the local branches and worktrees made since
# the start, not the remote's: a feature branch pushed (`git push -u
# origin feat`), merged into main and deleted here, and a backup pushed
# under another name (`git push origin HEAD:refs/heads/backup/x`), stayed on
# origin while the task read done. A branch a push from here made on a
# remote since the start, still there, is owed, named; the remedy deletes
# it where the trunk holds its work, and only says to once it has landed
# otherwise (`git push --delete` does not ask). A colleague's branch
# fetched, a branch there at the start and pushed to since, the trunk a
# new project's first push makes, and a branch a peer worktree has checked
# out are not the task's.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git push -q origin main:shared
git fetch -q origin
expect_run 0 md start "a feature"

merge_a_feature_through_feat
git push -q origin HEAD:refs/heads/backup/x
git push -q origin HEAD:shared
git clone -q "$case_root/origin.git" "$case_root/colleague"
(cd "$case_root/colleague" && git checkout -q -b theirs && echo c > c.txt && git add c.txt && git commit -qm c && git push -q origin theirs)
git fetch -q origin

expect_open nothing-accumulated "2 remote branches pushed from here since the start are still on their remotes: origin's branch backup/x, origin's branch feat" owed
out=$(evidence_of nothing-accumulated)
expect_not_contains "theirs"
expect_not_contains "shared"
out=$(remedy_of nothing-accumulated)
expect_contains "{ git push origin --delete refs/heads/backup/x || git fetch --prune origin; } && { git push origin --delete refs/heads/feat || git fetch --prune origin; }"
expect_run 10 md check

follow_remedy nothing-accumulated
expect_answer nothing-accumulated pass ""
expect_run 0 md check

# Work not landed: named, no command (a remote branch is deleted whether
# or not its work has landed).
git checkout -q -b wip
echo w > src/w.rs
commit_all "not landed"
git push -q origin wip:parked
git checkout -q main
git branch -q -D wip
expect_open nothing-accumulated "origin's branch parked" owed
out=$(remedy_of nothing-accumulated)
expect_contains "git push REMOTE --delete BRANCH"
