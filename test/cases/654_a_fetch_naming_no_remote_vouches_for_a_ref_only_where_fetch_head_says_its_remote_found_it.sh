#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# origin across a network (git daemon). The task commits, never pushes;
# makes a bare copy of its repository (`git clone --bare . ../scratch.git`),
# adds it as a remote `scratch`, makes it main's remote for a moment
# (`git config branch.main.remote scratch`), and runs a plain `git fetch`
# with a refspec given for it (`git -c
# remote.scratch.fetch=+refs/heads/main:refs/remotes/origin/main fetch`);
# main's remote is put back and scratch removed. origin/main's line reads
# "fetch -q: fast-forward", which names no remote, and was taken for a
# fetch of origin: pushed and integrated passed, `done: complete`, while a
# fresh clone of origin lacks the work. Git fetched the current branch's
# remote, and its FETCH_HEAD names scratch's URL: such a line vouches for
# the ref only where a FETCH_HEAD since says origin's branch was found at
# its value.

with_daemon_origin
expect_run 0 md start "a feature"
commit_a_feature
git clone -q --bare . "$case_root/scratch.git"
git remote add scratch "$case_root/scratch.git"
git config branch.main.remote scratch
git -c remote.scratch.fetch=+refs/heads/main:refs/remotes/origin/main fetch -q
git config branch.main.remote origin
git remote remove scratch
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: origin/main does not hold HEAD"
[ "$(git ls-remote origin refs/heads/main | cut -f1)" != "$(git rev-parse HEAD)" ] || fail "setup: origin's main holds HEAD"

expect_open pushed "a fetch that named no remote.*git fetch origin" owed
expect_also integrated "does not reach HEAD.*a fetch that named no remote" owed
expect_run 10 md check

# The honest way: pushed (the ref already there, git writes no line: the
# fetch its remedy names says what origin holds), then a colleague's
# commit taken in by a plain `git pull` (a fetch naming no remote, of
# origin: its FETCH_HEAD says so).
git push -q origin main
expect_open pushed "a fetch that named no remote" owed
git fetch -q origin
expect_answer pushed pass "Every commit on HEAD is on origin/main"
git clone -q "$project" "$case_root/colleague"
(cd "$case_root/colleague" && echo c > c.txt && git add c.txt && git -c user.name=C -c user.email=c@example.com commit -qm "theirs" && git push -q origin main)
git pull -q --no-rebase --no-edit
git push -q origin main
git clone -q "$project" "$case_root/colleague2"
(cd "$case_root/colleague2" && echo d > d.txt && git add d.txt && git -c user.name=C -c user.email=c@example.com commit -qm "theirs too" && git push -q origin main)
git pull -q --no-rebase --no-edit
case "$(tail -1 .git/logs/refs/remotes/origin/main)" in *"pull -q --no-rebase --no-edit: fast-forward") ;; *) fail "setup: the newest line is not the pull's" ;; esac
expect_answer integrated pass "reaches HEAD"
expect_answer pushed pass "Every commit on HEAD is on origin/main"
