#!/usr/bin/env bash
# A remote with more than one URL (`git config --add remote.origin.url
# BACKUP`, the usual "push to two hosts"), or more than one push URL: git
# fetches from the first URL and pushes to every one, and writes "update
# by push" into origin/main when any one of them accepted the push, and
# `git push` exits 1 for the one that refused, which is easy to ignore.
# So every URL and push URL is recorded at the start, and one added or
# removed since re-points the remote (its refs are read at their start
# values); and a push to a remote that pushes to more than one place is
# evidence only where each of them is read to hold it: one across a
# network cannot be, and the answer names it and says to fetch. Here
# origin is across a network (git daemon) and refuses the push, a
# colleague having pushed first; the second URL accepts it.
source "$(dirname "$0")/../lib.sh" || exit 2

with_daemon_origin
# A second URL before the start: every push goes to both.
git init -q --bare -b main "$case_root/backup.git"
git config --add remote.origin.url "$case_root/backup.git"
git push -q origin main
expect_run 0 md start "a feature"

# A colleague pushes to origin's main meanwhile.
git clone -q "$case_root/origin.git" "$case_root/colleague"
(cd "$case_root/colleague" && echo c > c.txt && git add c.txt &&
  git -c user.name=Colleague -c user.email=c@example.com commit -q -m colleague && git push -q origin main)

commit_a_feature
if git push -q origin main 2>/dev/null; then fail "setup: origin accepted the push"; fi
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: no update by push"
! git -C "$case_root/origin.git" merge-base --is-ancestor "$(git rev-parse HEAD)" main 2>/dev/null || fail "setup: origin holds the work"

expect_open pushed "pushes to 2 places.*across a network.*git fetch origin"
expect_open integrated "pushes to 2 places"

# Fetched: origin/main says what origin holds, the colleague's commit.
git fetch -q origin
expect_open pushed "."

# The honest way: merged with it and pushed to both; the push is still
# not read for origin's URL, until a fetch says what it holds.
git merge -q --no-edit origin/main
git push -q origin main
expect_open pushed "across a network.*git fetch origin"
git fetch -q origin
expect_answer pushed pass "."
expect_answer integrated pass "."

# A third URL added since the start, or a second push URL: the remote is
# re-pointed, and read at its start values (the work is not there then).
git init -q --bare -b main "$case_root/elsewhere.git"
git config --add remote.origin.url "$case_root/elsewhere.git"
expect_open pushed "URLs of origin changed since the start"
git remote set-url --delete origin "$case_root/elsewhere.git"
expect_answer pushed pass "."
git config --add remote.origin.pushurl "git://127.0.0.1:$port/origin.git"
git config --add remote.origin.pushurl "$case_root/elsewhere.git"
expect_open pushed "URLs of origin changed since the start"
