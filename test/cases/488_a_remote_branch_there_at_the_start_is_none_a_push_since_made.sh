#!/usr/bin/env bash
# nothing-accumulated reads a remote on this machine itself: a branch of
# it that no remote-tracking ref here stands for, at a commit this
# worktree made since the start, was pushed from here (test/cases/460).
# But a branch the remote already had at the start is none a push since
# made, whatever its tip now: a `--single-branch` clone's long-lived
# `release`, to which the fix is backported (`git push origin
# HEAD:release`), or a push mirror's trunk (`git remote add --mirror=push
# backup PATH`, then `git push backup`). So the start records, for each
# remote on this machine, its branches no ref here stands for, by name and
# tip, and those are left to pushed and integrated. A push mirror's
# branches are this repository's own mirrored: one a branch here stands
# for is that branch's, and one deleted here is deleted there by `git push
# backup` (`git push backup --delete` is refused under a mirror), which is
# its remedy.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git push -q origin main:release
git init -q --bare -b main "$case_root/backup.git"
cd "$case_root"
rm -rf repo
git clone -q --single-branch -b main "file://$case_root/origin.git" repo
cd repo
git remote add --mirror=push backup "$case_root/backup.git"
git push -q backup
expect_run 0 md start "a feature"

# The fix pushed to main, backported to release, mirrored to backup.
push_a_feature
git push -q origin HEAD:release
git push -q backup
[ "$(git -C "$case_root/backup.git" rev-parse main)" = "$(git rev-parse HEAD)" ] || fail "setup: not mirrored"
expect_answer nothing-accumulated pass "."

# A branch pushed since, still: named (test/cases/460).
git push -q origin HEAD:refs/heads/hotfix
expect_open nothing-accumulated "origin's branch hotfix" owed
git push -q origin --delete hotfix
expect_answer nothing-accumulated pass "."

# A branch made here and mirrored is the local branch's; deleted here,
# the mirror keeps it until the next mirror push, which is the remedy.
git branch wip
git push -q backup
expect_open nothing-accumulated "branch wip" owed
case "$(evidence_of nothing-accumulated)" in *"backup's branch"*) fail "the mirror's wip named beside the branch: $(evidence_of nothing-accumulated)" ;; esac
git branch -q -D wip
expect_open nothing-accumulated "backup's branch wip" owed
[ "$(remedy_of nothing-accumulated)" = "git push backup" ] || fail "remedy: $(remedy_of nothing-accumulated)"
follow_remedy nothing-accumulated
expect_answer nothing-accumulated pass "."
