#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# origin holds a tag v1.2 (a release); the task works on a branch of the
# same name, `git push -u origin HEAD` (the short name alone is refused
# as ambiguous), lands it on main and pulls. nothing-accumulated is owed
# for origin's branch v1.2, and its remedy was `git branch -D v1.2 && {
# git push origin --delete v1.2 || git fetch --prune origin; }`: git
# refuses the delete ("dst refspec v1.2 matches more than one": the tag
# and the branch), the prune took its place and the line exited 0, the
# branch still on origin and the question owed whatever was run. The
# remedy now names the branch in full (refs/heads/v1.2); the tag stays.

echo base > README
exempt_forge
commit_all "initial"
with_origin
git tag v1.2
git push -q origin v1.2
expect_run 0 md start "the 1.2 fix"
git switch -q -c v1.2
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "the 1.2 fix"
git push -q -u origin HEAD
git push -q origin HEAD:main
git switch -q main
git pull -q --ff-only
[ -n "$(git ls-remote origin refs/heads/v1.2)" ] || fail "setup: origin lacks the branch v1.2"

expect_open nothing-accumulated "origin's branch v1.2" owed
follow_remedy nothing-accumulated
[ -z "$(git ls-remote origin refs/heads/v1.2)" ] || fail "the remedy left the branch v1.2 on origin: $(git ls-remote origin)"
[ "$(remedy_of nothing-accumulated)" = "git branch -D v1.2 && { git push origin --delete refs/heads/v1.2 || git fetch --prune origin; }" ] ||
  fail "remedy: $(remedy_of nothing-accumulated)"
[ -n "$(git ls-remote origin refs/tags/v1.2)" ] || fail "the remedy took the tag v1.2 off origin"
expect_answer nothing-accumulated pass "No branch or linked worktree created since the start"
expect_run 0 md check
expect_contains "done: complete"
