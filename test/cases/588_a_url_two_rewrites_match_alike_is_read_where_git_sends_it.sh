#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# Two `url.<base>.insteadOf` rules with the same prefix: the user's own
# (`git config --global url.REAL/.insteadOf up:`) and the repository's
# (`url.MIRROR/.insteadOf up:`, a read-only mirror). git keeps the rules
# in the order each base first appears, the user's configuration first,
# and of two equally long takes the first: `up:proj.git` is REAL, as `git
# remote -v` says, and every fetch and push goes there. majordomus took
# the last, so it read origin's own repository at MIRROR: the task's work
# pushed to origin (REAL) was owed for good, its remedy `git push origin
# main` changing nothing. It now reads the URL as git does.

echo base > README
exempt_forge
commit_all "initial"
mkdir -p "$case_root/real" "$case_root/mirror"
git init -q --bare -b main "$case_root/real/proj.git"
git push -q "$case_root/real/proj.git" main
git clone -q --bare "$case_root/real/proj.git" "$case_root/mirror/proj.git"
git config --global url."$case_root/real/".insteadOf up:
git config url."$case_root/mirror/".insteadOf up:
git remote add origin up:proj.git
git fetch -q origin
git branch -q -u origin/main
git remote set-head origin main
git remote -v | grep -q "real/proj.git (push)" || fail "setup: git does not push to REAL"
expect_run 0 md start "a feature"
commit_a_feature
git push -q origin main
[ "$(git ls-remote "$case_root/real/proj.git" main | cut -f1)" = "$(git rev-parse HEAD)" ] || fail "setup: REAL lacks the work"
expect_answer pushed pass "on origin/main \(its upstream\)"
judge_answer integrated pass "reaches HEAD"
# What REAL lacks is still owed: a commit pushed to the mirror alone.
echo b > src/b.rs
commit_all "more"
git push -q "$case_root/mirror/proj.git" main
expect_open pushed "1 commit on HEAD is not on origin/main" owed
[ "$(remedy_of pushed)" = "git push origin main" ] || fail "remedy: $(remedy_of pushed)"
follow_remedy pushed
expect_answer pushed pass "on origin/main \(its upstream\)"
