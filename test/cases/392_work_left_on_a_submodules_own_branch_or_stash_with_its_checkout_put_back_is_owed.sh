#!/usr/bin/env bash
# The task finishes its work in the superproject and pushes it; inside the
# submodule lib it makes a branch, commits there, switches lib back to the
# commit the superproject records, and leaves a stash entry. Nothing of the
# superproject's own refs, stash or status shows it, and pushed, no-stash
# and nothing-accumulated passed: done: complete with an unpushed commit on
# lib's branch helper and a stash in lib. Every submodule checked out here
# is read as the superproject is: what lib held at the start (a branch with
# a commit of its own, a stash entry) stays inherited; what the task left
# there is owed, named with lib, until the remedies run.
source "$(dirname "$0")/../lib.sh" || exit 2

superproject_with_lib
# What lib already held: a branch with a commit its remote lacks, a stash.
(
  cd lib
  git switch -q -c old
  git commit -q --allow-empty -m "old work"
  git switch -q main
  echo old >> l.txt
  git stash -q
)
expect_run 0 md start "the work"

mkdir -p tests
echo t > tests/new.rs
commit_all "the work"
git push -q origin main
expect_answer pushed "pass" "."
expect_also no-stash "." "pass"
expect_also nothing-accumulated "." "pass"
expect_run 0 md check

(
  cd lib
  git switch -q -c helper
  echo 'pub fn helper() {}' > helper.rs
  git add helper.rs
  git commit -qm "helper"
  git switch -q main
  echo wip >> l.txt
  git stash -q
)
[ -z "$(git status --porcelain)" ] || fail "setup: the working tree is not clean"
[ "$(git -C lib rev-parse HEAD)" = "$(git rev-parse HEAD:lib)" ] || fail "setup: lib is not back at its recorded commit"
expect_open pushed "submodule lib: branch helper holds 1 commit no remote of lib holds" "owed"
expect_also no-stash "submodule lib: 1 stash entry made since the start remains" "owed"
expect_also nothing-accumulated "branch helper in the submodule lib" "owed"
expect_run 10 md check
expect_not_contains "done: complete"

# The remedies, as written: push lib's branch, then delete it; drop the stash.
md check --json > "$case_root/doc.json" || true
follow_remedy pushed
expect_answer pushed "pass" "."
follow_remedy nothing-accumulated
expect_advice no-stash
git -C lib stash drop -q stash@{0}
expect_answer no-stash "pass" "."
expect_also nothing-accumulated "." "pass"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
