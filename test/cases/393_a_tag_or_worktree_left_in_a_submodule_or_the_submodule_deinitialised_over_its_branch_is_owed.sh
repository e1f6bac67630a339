#!/usr/bin/env bash
# The same work left inside the submodule lib by other ordinary commands,
# lib's checkout put back each time: a commit made on lib's detached HEAD
# and kept by a tag (git -C lib tag wip); a linked worktree of lib made
# with --detach, a commit there; a branch with a commit, then `git
# submodule deinit -f lib`, which empties lib's directory and leaves its
# repository in .git/modules/lib. Each passed. Each is owed now, naming
# lib: the tag's commit no remote of lib holds, the worktree made since
# the start, the branch read from lib's git directory.
source "$(dirname "$0")/../lib.sh" || exit 2

superproject_with_lib
expect_run 0 md start "the work"
mkdir -p tests
echo t > tests/new.rs
commit_all "the work"
git push -q origin main
expect_run 0 md check

# A tag keeps a commit made on lib's detached HEAD.
(
  cd lib
  git switch -q --detach
  git commit -q --allow-empty -m "tagged work"
  git tag wip
  git switch -q main
)
expect_open pushed "submodule lib: the ref refs/tags/wip holds 1 commit no remote of lib holds" "owed"
expect_run 10 md check
git -C lib tag -d wip > /dev/null
expect_answer pushed "pass" "."

# A linked worktree of lib, detached, a commit there.
git -C lib worktree add -q --detach "$case_root/lib-wt"
git -C "$case_root/lib-wt" commit -q --allow-empty -m "work in lib's worktree"
expect_open nothing-accumulated "worktree lib-wt at .*lib-wt of the submodule lib" "owed"
expect_advice nothing-accumulated
expect_run 10 md check
git -C lib worktree remove --force "$case_root/lib-wt"
expect_answer nothing-accumulated "pass" "."
expect_run 0 md check

# A branch with a commit, then lib deinitialised.
(
  cd lib
  git switch -q -c helper
  git commit -q --allow-empty -m "helper"
  git switch -q main
)
git submodule deinit -q -f lib
[ -z "$(ls -A lib)" ] || fail "setup: lib's directory is not empty"
[ -z "$(git status --porcelain)" ] || fail "setup: the working tree is not clean"
expect_open pushed "submodule lib: branch helper holds 1 commit no remote of lib holds.*no longer checked out here" "owed"
expect_also nothing-accumulated "branch helper in the submodule lib" "owed"
expect_run 10 md check
# `git -C lib` of lib's empty directory is the superproject's: advice only.
expect_advice nothing-accumulated
expect_advice pushed
git submodule update -q --init lib
expect_answer pushed "owed" "submodule lib: branch helper"
follow_remedy pushed
expect_answer pushed "pass" "."
