#!/usr/bin/env bash
# nothing-accumulated named the local branches and worktrees made since
# the start, not the remote's: a feature branch pushed (`git push -u
# origin feat`), merged into main and deleted here, and a backup pushed
# under another name (`git push origin HEAD:refs/heads/backup/x`), stayed on
# origin while the task read done. A branch a push from here made on a
# remote since the start, still there, is owed, named (the remedy says to
# delete it once its work has landed: no command, as deleting a remote
# branch does not ask whether it has). A colleague's branch fetched and a
# branch there at the start, pushed to since, are not the task's.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git push -q origin main:shared
git fetch -q origin
expect_run 0 md start "a feature"

git checkout -q -b feat
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "feature"
git push -q -u origin feat
git checkout -q main
git merge -q --ff-only feat
git push -q origin main
git branch -q -d feat
git push -q origin HEAD:refs/heads/backup/x
git push -q origin HEAD:shared
git clone -q "$case_root/origin.git" "$case_root/colleague"
(cd "$case_root/colleague" && git checkout -q -b theirs && echo c > c.txt && git add c.txt && git commit -qm c && git push -q origin theirs)
git fetch -q origin

expect_open nothing-accumulated "2 remote branches created since the start are still there .*origin's branch backup/x \(pushed from here since the start\), origin's branch feat" owed
out=$(evidence_of nothing-accumulated)
expect_not_contains "theirs"
expect_not_contains "shared"
out=$(remedy_of nothing-accumulated)
expect_contains "git push REMOTE --delete BRANCH"
expect_run 10 md check

git push -q origin --delete feat backup/x
expect_answer nothing-accumulated pass ""
expect_run 0 md check
