#!/usr/bin/env bash
# A remote-tracking ref that moved since the start with no reflog line to
# say how is read at its start value (a ref written by hand is no
# evidence: case 123). So work pushed and landed, then every reflog
# expired (`git reflog expire --expire=now --all`), read as not pushed, not
# integrated and its upstream gone, with no way back but another push. A
# remote on this machine is read itself: where its own branch holds what
# the ref says, the ref counts at its value now. One written by hand to a
# commit the remote lacks still does not.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
commit_a_feature
git push -q origin main
expect_run 0 md check
git reflog expire --expire=now --all
expect_run 0 md check
expect_contains "done: complete"

# Written by hand past the remote, reflogs expired again: not counted.
echo more > src/more.rs
commit_all "more"
git update-ref refs/remotes/origin/main HEAD
git reflog expire --expire=now --all
expect_open pushed "origin/main" owed
