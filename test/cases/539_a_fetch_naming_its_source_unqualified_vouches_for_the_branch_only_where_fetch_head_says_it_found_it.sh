#!/usr/bin/env bash
# git resolves a fetch refspec's unqualified source on the remote in its
# own order (`refs/NAME`, `refs/tags/NAME`, then `refs/heads/NAME`), so
# `main` in `git fetch origin main:refs/remotes/origin/main` names a tag
# `main` where the remote has one. The task pushes its work as a tag named
# like the trunk (`git push origin HEAD:refs/tags/main`) and fetches `main`
# into origin/main: the reflog line reads like a fetch of origin's main
# under the start's mapping, and origin, across a network, cannot be read
# itself. Such a line vouches for the branch only where the FETCH_HEAD of
# that fetch says `branch 'main'` of origin's URL at the ref's commit (a
# `tag` line is none): else the ref is read at its start value, naming
# `git fetch origin`. The same holds for an upstream: a tag `feature`
# fetched into a pruned origin/feature does not make it alive. The honest
# flow, the project's main holding the work, fetched the same way, passes.
source "$(dirname "$0")/../lib.sh" || exit 2

with_daemon_origin
git branch feature
git push -q -u origin feature
git fetch -q origin
expect_run 0 md start "a feature"
expect_answer upstream-alive pass "none is gone"

commit_a_feature
here=$(git rev-parse HEAD)
git push -q origin HEAD:refs/tags/main
git fetch -q origin main:refs/remotes/origin/main
[ "$(git rev-parse refs/remotes/origin/main)" = "$here" ] || fail "setup: origin/main not filled"
! git --git-dir="$case_root/origin.git" merge-base --is-ancestor "$here" refs/heads/main || fail "setup: origin's main holds the work"
expect_open integrated "origin/main.*unqualified.*git fetch origin"

# The remedy: a plain fetch says what origin's main holds, not the work.
git fetch -q origin
expect_open integrated "does not reach HEAD"

# The upstream: pruned, then a tag of its name fetched into it.
git push -q origin --delete feature
git push -q origin feature:refs/tags/feature
git fetch -q origin feature:refs/remotes/origin/feature
[ "$(git rev-parse refs/remotes/origin/feature)" = "$(git rev-parse refs/heads/feature)" ] || fail "setup: origin/feature not filled"
expect_open upstream-alive "origin/feature.*unqualified" "owed"

# The honest flow: the tag gone, the project's main holds the work, and
# the same unqualified fetch finds the branch there (its FETCH_HEAD).
git push -q origin :refs/tags/main
git --git-dir="$case_root/origin.git" update-ref refs/heads/main "$here"
git fetch -q origin main:refs/remotes/origin/main
expect_answer integrated pass "reaches HEAD"
