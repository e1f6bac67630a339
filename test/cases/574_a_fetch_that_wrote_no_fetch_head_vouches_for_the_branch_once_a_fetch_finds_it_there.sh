#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The work pushed to origin's feature, not main (origin across a network,
# git daemon); then `remote.origin.fetch` set to map feature onto
# origin/main for one `git fetch --no-write-fetch-head origin` and put
# back: the line reads as any fetch of origin, and the FETCH_HEAD that says
# what a fetch found (test/cases/303) was not written. integrated passed
# while origin's main never held the work. Such a fetch vouches for the
# branch only once a fetch of origin since found the ref's commit there.

with_daemon_origin
expect_run 0 md start "a feature"
commit_a_feature
git push -q origin HEAD:feature
git config --replace-all remote.origin.fetch '+refs/heads/feature:refs/remotes/origin/main'
git fetch -q --no-write-fetch-head origin
git config --replace-all remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: origin/main does not hold HEAD"
[ "$(git ls-remote origin refs/heads/main | cut -f1)" != "$(git rev-parse HEAD)" ] || fail "setup: origin's main holds HEAD"

expect_open integrated "does not reach HEAD.*a fetch that wrote no FETCH_HEAD.*git fetch origin" owed
expect_answer pushed pass "origin/feature"

# The work landed on origin's main: the ref, already there, is still the
# blind fetch's until a fetch writes what it found.
git push -q origin HEAD:main
git fetch -q --no-write-fetch-head origin
expect_open integrated "a fetch that wrote no FETCH_HEAD" owed
git fetch -q origin
expect_answer integrated pass "reaches HEAD"
git push -q origin --delete feature
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
