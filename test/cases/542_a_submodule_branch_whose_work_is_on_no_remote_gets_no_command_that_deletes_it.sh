#!/usr/bin/env bash
# The task bumps its submodule lib from a branch made there: `git -C lib
# switch -c app-fix`, a commit, the superproject's pointer bumped and
# committed, app-fix not pushed. nothing-accumulated's remedy was the
# command `git -C lib switch --detach && git -C lib branch -d app-fix`: the
# detach with no target stays at app-fix's own tip, so `branch -d` never
# refused, and, run as written, it deleted a branch whose commit no remote
# holds. A remedy marked as a command never loses work: a submodule's
# branch gets a line that deletes it only where a remote-tracking ref of
# the remote named for lib holds its commit; before, advice (push it
# first). Pushed, the command runs as written and settles the question.
source "$(dirname "$0")/../lib.sh" || exit 2

lib_bump_pushed_without_lib
(cd lib && git switch -q -c app-fix && echo fix > fix.txt && git add fix.txt && git commit -qm "lib: fix")
git add lib
git commit -qm "bump lib"
expect_open nothing-accumulated "branch app-fix in the submodule lib" "owed"
if [ "$(remedy_field nothing-accumulated remedy_kind)" = command ]; then
  (sh -c "$(remedy_of nothing-accumulated)") > /dev/null 2>&1 || true
fi
git -C lib rev-parse -q --verify refs/heads/app-fix > /dev/null ||
  fail "nothing-accumulated's remedy, run as written, deleted app-fix, whose commit no remote holds"
expect_advice nothing-accumulated

# The honest way out: the branch pushed, the command deletes it, the
# question settles, and its commit is still on lib's remote.
fix=$(git -C lib rev-parse app-fix)
git -C lib push -q -u origin app-fix
expect_open nothing-accumulated "branch app-fix in the submodule lib" "owed"
follow_remedy nothing-accumulated
! git -C lib rev-parse -q --verify refs/heads/app-fix > /dev/null || fail "the command left app-fix"
git --git-dir="$case_root/lib.git" cat-file -e "$fix" || fail "app-fix's commit is not on lib's remote"
expect_answer nothing-accumulated "pass" "."
