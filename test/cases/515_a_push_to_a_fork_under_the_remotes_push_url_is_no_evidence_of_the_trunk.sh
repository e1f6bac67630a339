#!/usr/bin/env bash
# "Fetch from the project, push to my fork": origin fetches from the
# project across a network and pushes elsewhere, set before the start
# (`git remote set-url --push origin FORK`, or `url.FORK.pushInsteadOf
# ORIGIN`). `git push origin HEAD:main` goes to the fork's main, and git
# writes "update by push" into origin/main all the same, though origin/main
# stands for the project's main, which never saw the commit. A push line is
# evidence of the branch the ref stands for only where the push went to the
# URL the remote fetches from: elsewhere, the trunk is read where a fetch or
# the start left it, named, with `git fetch origin` to say what the project
# holds. `pushed` still passes: the work is on the fork. The honest flow
# (the fork's main merged by the project, then a fetch) passes; so does one
# repository under two texts (push URL `localhost`, fetch URL `127.0.0.1`),
# once a fetch says the project's main holds the push (its FETCH_HEAD).
source "$(dirname "$0")/../lib.sh" || exit 2

with_daemon_origin
# The fork, on this machine, as origin's push URL, before the start.
git clone -q --bare "$case_root/origin.git" "$case_root/fork.git"
git remote set-url --push origin "$case_root/fork.git"
git fetch -q origin
expect_run 0 md start "a feature"

commit_a_feature
git push -q origin HEAD:main
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: no update by push"
! git -C "$case_root/origin.git" merge-base --is-ancestor "$(git rev-parse HEAD)" main 2>/dev/null || fail "setup: the project holds the work"

expect_open integrated "read at its start value.*push to .*fork\.git, not to git://.*git fetch origin"
[[ "$(remedy_of integrated)" == *"git fetch origin"* ]] || fail "integrated's remedy names no fetch: $(remedy_of integrated)"
# The work is on a remote, the fork.
judge_answer pushed pass "."

# A fetch says what the project holds: not the work.
git fetch -q origin
expect_open integrated "does not reach HEAD"

# The honest way: the project merges the fork's main, and a fetch says so.
git --git-dir="$case_root/origin.git" fetch -q "$case_root/fork.git" main:main
git fetch -q origin
expect_answer integrated pass "reaches HEAD"
expect_answer pushed pass "."

# The same through url.FORK.pushInsteadOf, in a clone of the project.
git clone -q --bare "$case_root/origin.git" "$case_root/fork2.git"
git clone -q "$project" "$case_root/second"
cd "$case_root/second"
git config "url.$case_root/fork2.git.pushInsteadOf" "$project"
expect_run 0 md start "b feature"
echo b > b.txt
commit_all "b feature"
git push -q origin HEAD:main
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: no update by push (pushInsteadOf)"
expect_open integrated "push to .*fork2\.git, not to git://.*git fetch origin"

# One repository under two texts: owed until a fetch finds the push there.
git clone -q "$project" "$case_root/third"
cd "$case_root/third"
git remote set-url --push origin "git://localhost:$port/origin.git"
expect_run 0 md start "c feature"
echo c > c.txt
commit_all "c feature"
git push -q origin HEAD:main
git -C "$case_root/origin.git" merge-base --is-ancestor "$(git rev-parse HEAD)" main || fail "setup: the project lacks the push"
expect_open integrated "push to git://localhost.*git fetch origin"
git fetch -q origin
expect_answer integrated pass "reaches HEAD"
