#!/usr/bin/env bash
# The task commits in its submodule lib and pushes the bump; lib's remote
# (../lib.git) is a repository on this machine. Then, inside lib, a push
# under a push URL given for one command (`git -C lib -c
# remote.origin.pushurl=ELSEWHERE push origin HEAD:main`), or a reflog
# line written by hand (`git update-ref -m "update by push"`): lib's
# origin/main says the commit is there, and pushed passed, while a fresh
# `git clone --recurse-submodules` fails ("not our ref"). The
# superproject's own remote on this machine is read itself (390); a
# submodule's was taken at its refs' word. Now a submodule's counted ref
# of a remote on this machine counts only at a commit the remote's own
# branch holds, for the bump HEAD records and for work left on the
# submodule's branches alike.
source "$(dirname "$0")/../lib.sh" || exit 2

lib_bump_pushed_without_lib
lib_work=$(git -C lib rev-parse HEAD)
git init -q --bare "$case_root/mine.git"

# A push that went elsewhere, under a push URL given for one command.
git -C lib -c remote.origin.pushurl="$case_root/mine.git" push -q origin HEAD:main
git --git-dir="$case_root/lib.git" cat-file -e "$lib_work" 2> /dev/null && fail "lib.git holds the commit"
expect_open pushed "lib.*origin/main says its remote holds.*own repository on this machine.*does not hold it" "owed"
expect_run 10 md check

# A line written by hand over a ref filled by hand.
git -C lib update-ref refs/remotes/origin/main "$(git --git-dir="$case_root/lib.git" rev-parse main)"
git -C lib update-ref -m "update by push" refs/remotes/origin/main HEAD
expect_open pushed "lib.*origin/main says its remote holds" "owed"

# Work left on a branch of the submodule, pushed the same way.
git -C lib switch -q -c helper
(cd lib && echo h > helper.txt && git add helper.txt && git commit -qm "lib: helper")
git -C lib -c remote.origin.pushurl="$case_root/mine.git" push -q -u origin helper
git -C lib switch -q --detach "$lib_work"
expect_open pushed "branch helper holds 1 commit no remote of lib holds" "owed"

# Pushed to the remote itself, both are pushed, and a clone gets the bump.
git -C lib push -q origin HEAD:main helper
expect_answer pushed "pass" "lib points at .*which its origin/(main|helper) holds"
git clone -q --recurse-submodules "$case_root/origin.git" "$case_root/fresh" 2> /dev/null ||
  fail "a fresh clone could not fetch the submodule's commit"
