#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The task commits in its submodule lib (whose remote is across a
# network, a git daemon here) and pushes the bump in the superproject,
# not in lib. Someone moves lib's main on, `git -C lib fetch`; then one
# line in lib's own grafts file (.git/modules/lib/info/grafts) gives
# lib's origin/main a parent, the task's commit. libgit2 honours grafts
# (121 closed them in the superproject): pushed passed, "lib points at
# ..., which its origin/main holds", while a fresh
# `git clone --recurse-submodules` fails ("not our ref"). Likewise work
# left on a branch of lib. Now a grafts file in a submodule's repository
# makes what its remote holds unknown, naming the file.

lib_remote
serve_by_git_daemon lib.git
lib_bumped "git://127.0.0.1:$port/lib.git"
work=$(git -C lib rev-parse HEAD)
(cd "$case_root/seed" && git commit -q --allow-empty -m other && git push -q origin HEAD:main)
git -C lib fetch -q origin
expect_open pushed "lib points at .*none of lib's remote-tracking refs holds" "owed"

grafts="$(git -C lib rev-parse --absolute-git-dir)/info/grafts"
mkdir -p "$(dirname "$grafts")"
echo "$(git -C lib rev-parse origin/main) $work" > "$grafts"
git -c advice.graftFileDeprecated=false -C lib merge-base --is-ancestor "$work" origin/main ||
  fail "setup: git does not honour the graft"
expect_open pushed "lib.*modules/lib/info/grafts rewrites the parents" "unknown"
expect_run 10 md check

# Pushed to the remote itself, with no graft, the bump is pushed.
rm "$grafts"
git -C lib push -q origin "$work:refs/heads/new"
expect_answer pushed "pass" "lib points at .*which its origin/new holds"

# Work left on a branch of lib, the submodule back on the bump, and a
# graft giving lib's origin/new a second parent, the branch's commit.
git -C lib switch -q -c helper
(cd lib && echo h > helper.txt && git add helper.txt && git commit -qm "lib: helper")
git -C lib switch -q --detach "$work"
expect_open pushed "branch helper holds 1 commit no remote of lib holds" "owed"
echo "$work $(git -C lib rev-parse "$work~1") $(git -C lib rev-parse helper)" > "$grafts"
expect_open pushed "lib.*info/grafts rewrites the parents" "unknown"

# The honest way out: the grafts file removed, the branch pushed.
rm "$grafts"
git -C lib push -q origin helper
expect_answer pushed "pass" "lib points at .*which its origin/(new|helper) holds"
git clone -q --recurse-submodules "$case_root/origin.git" "$case_root/fresh" 2> /dev/null ||
  fail "a fresh clone could not fetch the submodule's commit"
