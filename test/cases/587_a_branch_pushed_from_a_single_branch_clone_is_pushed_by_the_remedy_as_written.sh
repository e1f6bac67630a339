#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# In a `git clone --single-branch` (or `--depth`) of a remote across a
# network, the fetch refspec maps only the cloned branch: the task's
# `git push -u origin feat` pushes the work and sets the upstream, but
# writes no origin/feat, so nothing here says origin has it. pushed was
# owed with the remedy `git push -u origin feat`, which, run as written,
# changes nothing: owed for good while the work was on origin. The remedy
# now adds the branch to the refspecs and fetches it.

with_daemon_origin
git clone -q --single-branch "$project" "$case_root/work"
cd "$case_root/work"
expect_run 0 md start "a feature"
commit_a_feature feat
git push -q -u origin feat
[ -n "$(git ls-remote origin refs/heads/feat)" ] || fail "setup: origin lacks feat"
! git rev-parse -q --verify refs/remotes/origin/feat > /dev/null || fail "setup: the push wrote origin/feat"
expect_open pushed "1 commit on HEAD is not on origin/main" owed
[ "$(remedy_of pushed)" = "git push -u origin feat && git remote set-branches --add origin feat && git fetch origin" ] ||
  fail "remedy: $(remedy_of pushed)"
follow_remedy pushed
expect_answer pushed pass "on origin/feat \(its upstream\)"
judge_answer upstream-alive pass "none is gone"
# A refspec mapping every branch keeps the plain push.
git remote set-branches origin '*'
git checkout -q -b other
echo b > src/b.rs
commit_all "other"
expect_open pushed "1 commit on HEAD is not on origin/main" owed
[ "$(remedy_of pushed)" = "git push -u origin other" ] || fail "remedy: $(remedy_of pushed)"
