#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# origin holds a tag v1.2 (a release), fetched here; a branch origin/main
# was made here by mistake (`git branch origin/main`) and left behind. The
# task works on a branch v1.2: pushed's remedy was `git push -u origin
# v1.2`, which git refuses ("src refspec v1.2 matches more than one"), so
# the honest flow had no way out as written; once the work landed,
# nothing-accumulated's `git switch --detach origin/main && ...` took the
# stray branch for the trunk (git reads refs/heads/ before refs/remotes/)
# and left HEAD at an old commit. A remedy names such a ref in full.

echo base > README
exempt_forge
commit_all "initial"
with_origin
git tag v1.2
git push -q origin v1.2
git branch origin/main
echo more >> README
commit_all "more"
git push -q origin main
expect_run 0 md start "the 1.2 fix"
git switch -q -c v1.2
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "the 1.2 fix"

expect_open pushed "not on origin/main" owed
[ "$(remedy_of pushed)" = "git push -u origin refs/heads/v1.2" ] || fail "pushed's remedy: $(remedy_of pushed)"
follow_remedy pushed
[ "$(git ls-remote origin refs/heads/v1.2 | cut -f1)" = "$(git rev-parse HEAD)" ] || fail "origin lacks the branch v1.2"
[ "$(git config branch.v1.2.merge)" = refs/heads/v1.2 ] || fail "the push set no upstream"
expect_answer pushed pass "origin/v1.2"

# A second commit, pushed again to the upstream by the remedy.
echo b >> src/a.rs
commit_all "the 1.2 fix, more"
expect_open pushed "not on origin/v1.2" owed
[ "$(remedy_of pushed)" = "git push origin refs/heads/v1.2" ] || fail "pushed's remedy: $(remedy_of pushed)"
follow_remedy pushed
expect_answer pushed pass "origin/v1.2"

# Landed: the checked-out branch is left for the trunk's commit, the real one.
git push -q origin HEAD:main
git fetch -q origin
expect_open nothing-accumulated "branch v1.2 \(the task's own branch, checked out here\)|branch v1.2 \(checked out here\)" owed
remedy_of nothing-accumulated | grep -q "^git switch --detach refs/remotes/origin/main && git branch " ||
  fail "nothing-accumulated's remedy: $(remedy_of nothing-accumulated)"
follow_remedy nothing-accumulated
[ "$(git rev-parse HEAD)" = "$(git rev-parse refs/remotes/origin/main)" ] ||
  fail "the remedy left HEAD at $(git rev-parse HEAD), not origin/main's $(git rev-parse refs/remotes/origin/main)"
[ -n "$(git ls-remote origin refs/tags/v1.2)" ] || fail "the remedy took the tag v1.2 off origin"
git rev-parse -q --verify refs/tags/v1.2 > /dev/null || fail "the remedy took the tag v1.2"
expect_run 0 md check
expect_contains "done: complete"
