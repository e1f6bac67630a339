#!/usr/bin/env bash
# `git symbolic-ref refs/heads/alias refs/heads/main` makes a branch name
# (`git branch` lists `alias -> main`) that holds no commit of its own and
# keeps no reflog: it was read as no branch at all, so one made during the
# task passed nothing-accumulated. A symbolic branch whose file was
# written since the start has accumulated, named with the command that
# removes it; one there before the start has not.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git symbolic-ref refs/heads/older refs/heads/main
sleep 1.1
expect_run 0 md start "a feature"
commit_a_feature
git push -q origin main
expect_answer nothing-accumulated pass "."

git symbolic-ref refs/heads/alias refs/heads/main
git branch | grep -q "alias -> main" || fail "git does not list the alias"
expect_open nothing-accumulated "branch alias \(a symbolic ref to main\)" owed
expect_run 10 md check
expect_contains "git symbolic-ref --delete refs/heads/alias"

git symbolic-ref --delete refs/heads/alias
expect_answer nothing-accumulated pass "."
