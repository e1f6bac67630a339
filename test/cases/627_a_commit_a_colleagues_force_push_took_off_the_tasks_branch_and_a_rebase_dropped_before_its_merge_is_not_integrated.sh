#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The task works on a branch feat with an upstream origin/feat. It commits
# its fix and pushes it; a colleague, whose clone never fetched it,
# force-pushes feat back over it with a commit of their own. The task's
# `git pull --rebase` drops the fix (git's fork-point reads origin/feat's
# reflog, which held it), the task commits its test and pushes, and the
# colleague merges feat into main. The trunk reaches HEAD, and integrated
# passed (`done: complete` once feat was deleted) while the fix was on no
# ref anywhere: 615 read only the trunk's ref. A commit made here that
# another remote-tracking ref held since the start and a fetch took off,
# where the trunk reaches that ref's value now, is dropped as one taken
# off the trunk is.

as_colleague() {
  (cd "$case_root/colleague" &&
    export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com GIT_COMMITTER_EMAIL=c@example.com &&
    sh -c "$1")
}

echo base > README
exempt_forge
commit_all "initial"
with_origin
git clone -q "$case_root/origin.git" "$case_root/colleague"
git checkout -q -b feat
git push -q -u origin feat
expect_run 0 md start "fix the limit"
echo "limit = 2" > limit.conf
commit_all "fix the limit"
fix=$(git rev-parse HEAD)
git push -q origin feat

as_colleague 'git fetch -q origin && git checkout -q -b feat origin/main &&
  echo peer > peer.txt && git add peer.txt && git commit -qm "peer work" && git push -q -f origin feat'
git pull -q --rebase origin feat 2>/dev/null
mkdir -p tests && printf 'def test_limit():\n    assert open("limit.conf").read()\n' > tests/test_limit.py
commit_all "test the limit"
git push -q origin feat
as_colleague 'git checkout -q main && git fetch -q origin && git merge -q --no-edit origin/feat && git push -q origin main'
git fetch -q origin
# The real fact: the remote's main, its feat, and HEAD lack the fix.
git clone -q "$case_root/origin.git" "$case_root/fresh"
[ ! -e "$case_root/fresh/limit.conf" ] || fail "the remote's main holds the fix"
[ -z "$(git -C "$case_root/fresh" log --all --format=%H -- limit.conf)" ] || fail "the remote holds the fix"
[ ! -e limit.conf ] || fail "HEAD holds the fix"

expect_open integrated "holds 1 path the task changed since the start as the start had it: limit.conf.*${fix:0:12}.*was on origin/feat, until a fetch took it off.*work since is on the trunk without it" owed
expect_run 10 md check
expect_contains "git cherry-pick $fix"
# The branch deleted, as nothing-accumulated asks: still owed.
git switch -q --detach origin/main
git branch -q -d feat
expect_open integrated "${fix:0:12}.*was on origin/feat" owed

# The honest way: the dropped commit put back, as the remedy says, and
# landed on the trunk.
git cherry-pick "$fix" >/dev/null
git push -q origin HEAD:main
expect_answer integrated pass "reaches HEAD"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
