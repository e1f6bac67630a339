#!/usr/bin/env bash
# A `git clone --single-branch` (as every `--depth` clone is) fetches only
# its branch: a push to another (`git push origin HEAD:backup/x`) writes
# no remote-tracking ref, so nothing here says the branch was made. A
# remote on this machine is read itself: its branches no refspec maps
# whose tip is a commit this worktree made since the start are pushed
# from here, and have accumulated until deleted there.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
exempt_forge
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
git -C "$case_root/origin.git" branch colleague main
cd "$case_root"
git clone -q --single-branch -b main "$case_root/origin.git" clone
cd clone
expect_run 0 md start "fix a"
mkdir -p tests
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
commit_all "fix a"
git push -q origin HEAD:refs/heads/backup/x
git push -q origin main
expect_open nothing-accumulated "origin's branch backup/x" owed
case "$(evidence_of nothing-accumulated)" in *colleague*) fail "a colleague's branch named" ;; esac

git push -q origin --delete backup/x
expect_answer nothing-accumulated pass ""
