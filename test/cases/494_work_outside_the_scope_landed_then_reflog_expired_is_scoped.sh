#!/usr/bin/env bash
# test/cases/349 (a docs branch pushed straight onto origin's main, back
# to main, the branch deleted), then `git reflog expire --expire=now
# --all`: the commits made around HEAD were read from HEAD's reflog alone,
# so with its lines gone scoped passed, with the trunk holding this
# worktree's change outside the scope; after a `git gc` too.
#
# The rule: the commits this repository wrote since the start are read
# beside HEAD's reflog (the loose objects under its own address, where
# HEAD does not reach the trunk); where HEAD's reflog was rewritten since
# the start, every commit the trunk holds that HEAD, the start and the
# trunk's start value do not, under this repository's own address, is
# read as made here: scoped is refused naming the path. A colleague's
# change outside the scope, fetched and left unmerged, is under their
# address: scoped passes, the reflogs expired and the objects packed.
source "$(dirname "$0")/../lib.sh" || exit 2

start_src_task_beside_docs
push_a_feature

# Honest: a colleague's docs change fetched, the reflogs expired, packed.
colleague "docs" "echo theirs > docs/x.md"
git fetch -q origin
git reflog expire --expire=now --all
expect_answer scoped "pass" "inside the scope"
git gc -q --prune=now
expect_answer scoped "pass" "inside the scope"

git checkout -q -b docs origin/main
echo mine > docs/y.md
commit_all "docs too"
git push -q origin docs:main
git checkout -q main
git branch -q -D docs
git fetch -q origin
expect_open scoped "docs/y.md" "refused"
git reflog expire --expire=now --all
expect_open scoped "docs/y.md" "refused"
git gc -q --prune=now
expect_open scoped "docs/y.md" "refused"
