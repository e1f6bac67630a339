#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The task commits its fix and pushes it onto origin's main; a colleague,
# whose clone never fetched it, force-pushes main back over it with a
# commit of their own. The task's `git pull --rebase` then drops the fix:
# git's fork-point reads origin/main's reflog, which held the fix, and
# takes it for already upstream. The task commits its test and pushes:
# the push is a fast-forward, the trunk reaches HEAD, and integrated
# passed (`done: complete`) while the fix was on no ref anywhere, the
# remote's main included. A commit made here that the trunk's ref held
# since the start and a fetch took off, which HEAD does not hold either,
# is work undone on the trunk, as a colleague's revert is (456).

echo base > README
exempt_forge
commit_all "initial"
with_origin
git clone -q "$case_root/origin.git" "$case_root/colleague"
expect_run 0 md start "fix the limit"
echo "limit = 2" > limit.conf
commit_all "fix the limit"
fix=$(git rev-parse HEAD)
git push -q origin main

(cd "$case_root/colleague" &&
  export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com GIT_COMMITTER_EMAIL=c@example.com &&
  echo "peer" > peer.txt && git add peer.txt && git commit -qm "peer work" && git push -q -f origin main)
git pull -q --rebase origin main 2>/dev/null
mkdir -p tests && printf 'def test_limit():\n    assert open("limit.conf").read()\n' > tests/test_limit.py
commit_all "test the limit"
git push -q origin main
# The real fact: the remote's main, and HEAD, lack the fix.
git clone -q "$case_root/origin.git" "$case_root/fresh"
[ ! -e "$case_root/fresh/limit.conf" ] || fail "the remote holds the fix"
[ ! -e limit.conf ] || fail "HEAD holds the fix"

expect_open integrated "holds 1 path the task changed since the start as the start had it: limit.conf.*${fix:0:12}.*a fetch took it off" owed
expect_run 10 md check
expect_contains "git cherry-pick $fix"

# The honest way: the dropped commit put back, as the remedy says, and pushed.
git cherry-pick "$fix" >/dev/null
git push -q origin main
expect_answer integrated pass "reaches HEAD"
expect_also pushed "Every commit on HEAD is on origin/main" pass

# A commit the task itself took off the trunk (a push from here) was its
# own doing, as a revert made here is: not owed.
echo spike > spike.txt
commit_all "a spike"
git push -q origin main
git reset -q --hard HEAD~1
git push -q -f origin main
expect_answer integrated pass "reaches HEAD"
