#!/usr/bin/env bash
# A `fork` remote whose fetch refspec writes into origin's names
# (`+refs/heads/*:refs/remotes/origin/*`, configured before the start):
# `git push fork HEAD:main` moves origin/main with "update by push", and a
# fetch of the fork moves it as well, though origin, across a network,
# never saw the work. A ref the fetch refspecs of two remotes write (now or
# at the start) is evidence of neither once it moved: read at its start
# value, naming both remotes and how to give each its own refs. Putting the
# refspec right after the push does not launder the push's line; a fetch of
# origin since says what origin holds, and the honest flow passes.
source "$(dirname "$0")/../lib.sh" || exit 2

with_daemon_origin
git clone -q --bare "$case_root/origin.git" "$case_root/fork.git"
git remote add fork "$case_root/fork.git"
git config --replace-all remote.fork.fetch '+refs/heads/*:refs/remotes/origin/*'
git fetch -q fork
expect_run 0 md start "a feature"

commit_a_feature
git push -q fork HEAD:main
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: the push did not move origin/main"
! git -C "$case_root/origin.git" cat-file -e "$(git rev-parse HEAD)" 2>/dev/null || fail "setup: origin holds the work"

shared="origin/main is written by the fetch refspecs of fork and origin"
expect_open integrated "does not reach HEAD.*$shared"
expect_open pushed "$shared"

# A fetch of the fork: its line names the fork, the ref still both's.
git fetch -q fork
expect_open integrated "does not reach HEAD.*$shared"

# The fork's refspec put right after the push: the push's line is still
# the newest, and was written while both wrote the ref.
git push -q fork HEAD:main
git config --replace-all remote.fork.fetch '+refs/heads/*:refs/remotes/fork/*'
git update-ref -m "update by push" refs/remotes/origin/main HEAD
expect_open integrated "does not reach HEAD.*$shared"

# A fetch of origin says what origin holds: not the work.
git fetch -q origin
expect_open integrated "does not reach HEAD"
[[ "$(evidence_of integrated)" != *"$shared"* ]] || fail "a fetch of origin alone still read as shared: $(evidence_of integrated)"

# The honest flow: the work pushed to origin, then fetched.
git push -q origin HEAD:main
git fetch -q origin
expect_answer integrated pass "reaches HEAD"
expect_answer pushed pass "."
