#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# git still reads a remote from a file `.git/remotes/NAME` (its older way,
# `git remote -v` lists it) where the configuration gives NAME no URL:
# `URL:` lines its URLs, `Pull:` lines its fetch refspecs. The task writes
# one naming a fork on this machine whose Pull: line maps onto
# refs/remotes/origin/main, and `git push up`: git writes "update by
# push" into origin/main, though origin (across a network) never saw the
# commit. majordomus read the remotes from the configuration alone, so
# the line read as a push to origin: done: complete. The file's remote is
# a remote as any other: added since the start, it is evidence of none.

with_daemon_origin
expect_run 0 md start "a feature"
commit_a_feature
git init -q --bare -b main "$case_root/fork.git"
mkdir -p .git/remotes
printf 'URL: %s\nPull: refs/heads/main:refs/remotes/origin/main\n' "$case_root/fork.git" > .git/remotes/up
git push -q up main
[ "$(git rev-parse refs/remotes/origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: the push did not move origin/main"
[ "$(git ls-remote origin refs/heads/main | cut -f1)" != "$(git rev-parse HEAD)" ] || fail "setup: origin has the work"
expect_open pushed "1 commit on HEAD is not on origin/main \(its upstream, read at its start value\).*up was added since the start" owed
judge_answer integrated owed "origin/main is read at its start value: up was added since the start"
# The honest way out: the file taken away and the work pushed to origin.
rm .git/remotes/up
git push -q origin main
[ "$(git ls-remote origin refs/heads/main | cut -f1)" = "$(git rev-parse HEAD)" ] || fail "origin did not get the work"
expect_answer pushed pass "on origin/main \(its upstream\)"
judge_answer integrated pass "reaches HEAD"
