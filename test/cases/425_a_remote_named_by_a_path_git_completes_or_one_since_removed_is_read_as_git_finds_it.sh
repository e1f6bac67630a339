#!/usr/bin/env bash
# A remote on this machine is read itself (test/cases/390), found where
# git's transport finds it: `git remote add origin ../origin` names
# `../origin.git` when only that is a repository, so a push under a push
# URL given for one command is still owed there. A remote whose path holds
# no repository any more (removed after the push) holds nothing: it leads
# elsewhere than at the start (test/cases/459), its refs read at their start
# values, named. An honest push to the remote named without its suffix passes.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
git init -q --bare -b main "$case_root/origin.git"
git remote add origin "$case_root/origin"
git push -q -u origin main
git remote set-head origin main
[ "$(git -C "$case_root/origin.git" rev-parse main)" = "$(git rev-parse main)" ] || fail "git did not find origin.git"
git init -q --bare -b main "$case_root/elsewhere.git"
expect_run 0 md start "a feature"
commit_a_feature

# Pushed elsewhere under a push URL given for one command.
git -c remote.origin.pushurl="$case_root/elsewhere.git" push -q origin main
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "git did not move origin/main"
expect_open pushed "origin's own repository on this machine, .*origin.git, holds main at" owed
expect_also integrated "does not reach HEAD" owed

# Pushed for real, to the remote named without its suffix: passes.
git push -q origin main
expect_answer pushed pass "on origin/main"

# The remote removed after the push: nothing holds the work.
mv "$case_root/origin.git" "$case_root/moved.git"
expect_open pushed "led on this machine at the start to the repository at .*origin.git and leads now to no repository"
expect_run 10 md check
expect_contains "pushed="
