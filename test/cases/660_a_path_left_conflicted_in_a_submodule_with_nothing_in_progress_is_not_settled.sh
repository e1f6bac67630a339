#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# `settled` read each submodule for an operation in progress (458, 633)
# but not for its conflicted paths: a `git -C lib stash pop` (or
# `git -C lib merge --squash`) that conflicted leaves l.txt "both
# modified" in lib's index with no operation in progress, and
# `settled=pass` said "no path is conflicted", before any start and with
# a task, while `git -C lib status` lists it under "Unmerged paths". Each
# submodule's index is read for entries at a stage other than 0, as the
# superproject's is.

superproject_with_lib
# lib's own branch, pushed to lib's remote, whose l.txt a stash conflicts with.
(
  cd lib
  git checkout -q -b other
  echo other > l.txt
  git commit -qam other
  git push -q origin other
  git checkout -q main
)
expect_answer settled pass ""

lib_conflict() {
  (
    cd lib
    echo mine > l.txt
    git stash -q
    git merge -q --squash other > /dev/null
    git stash pop > /dev/null 2>&1 && fail "setup: the stash popped without a conflict"
    git stash drop -q
    # the content put back as lib's HEAD has it: only the index holds the conflict
    git show HEAD:l.txt > l.txt
  )
  git -C lib status | grep -q "Unmerged paths" || fail "setup: git -C lib status lists no unmerged path"
  [ -z "$(git -C lib ls-files -u)" ] && fail "setup: lib's index holds no conflicted entry"
  return 0
}

# Before any start (`settled` needs no task).
lib_conflict
expect_open settled "1 path conflicted in lib: l.txt" owed
[ "$(remedy_of settled)" = "resolve the conflicted paths in lib and git -C lib add them" ] || fail "remedy: $(remedy_of settled)"
git -C lib add l.txt
expect_answer settled pass "no path is conflicted"

# With a task.
expect_run 0 md start "lib work"
commit_a_feature
git push -q origin main
lib_conflict
expect_open settled "conflicted in lib: l.txt" owed
git -C lib status --short | grep -q "^UU l.txt" || fail "setup: git -C lib status --short shows no UU"
# The honest way out: the path resolved (here as HEAD has it) and added.
git -C lib add l.txt
[ -z "$(git -C lib status --porcelain)" ] || fail "setup: lib is not clean"
expect_answer settled pass "no path is conflicted"
expect_answer committed pass ""
