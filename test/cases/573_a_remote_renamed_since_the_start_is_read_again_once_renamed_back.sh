#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# `git remote rename origin upstream` (the first step of "my fork as
# origin") after the work was pushed: a remote counts under the name it had
# at the start, so pushed stayed owed, and its remedy `git push -u origin
# main` named a remote that no longer exists; renaming it back did not help
# either, as the rename's reflog line ("remote: renamed ...") was read as a
# move that was no fetch or push, until origin moved again. The rename is
# named with the way back, the remedy renames it back, and the line the
# rename writes is read through: below it, a fetch or push of the remote
# under either name. A commit never pushed is still owed after it.

with_daemon_origin
expect_run 0 md start "a feature"
commit_a_feature
git push -q origin main
git remote rename origin upstream

expect_open pushed "upstream was added since the start, with the URLs origin had then .*git remote rename upstream origin" owed
follow_remedy pushed
expect_answer pushed pass "on origin/main"
expect_answer integrated pass "reaches HEAD"
expect_answer upstream-alive pass "none is gone"

# Renamed again, a colleague's commit fetched and the work pushed under the
# new name: the lines name upstream, the remote origin was then.
git remote rename origin upstream
colleague "docs" "echo d > docs.txt"
git fetch -q upstream
git merge -q --ff-only upstream/main
echo b >> src/a.rs
commit_all "more"
git push -q upstream main
expect_open pushed "git remote rename upstream origin" owed
follow_remedy pushed
[ "$(git ls-remote origin refs/heads/main | cut -f1)" = "$(git rev-parse HEAD)" ] || fail "setup: origin does not hold HEAD"
expect_answer pushed pass "on origin/main"
expect_answer integrated pass "reaches HEAD"

# A rename and back launders nothing: a commit never pushed is owed.
echo c >> src/a.rs
commit_all "unpushed"
git remote rename origin upstream
git remote rename upstream origin
expect_open pushed "1 commit on HEAD is not on origin/main" owed
git push -q origin main
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
