# `remote.origin.fetch` set to map origin's feature onto origin/main for
# one `git fetch`, then put back: origin/main's reflog line reads like any
# fetch of origin ("fetch origin: fast-forward") and the configuration is
# the start's again, so the trunk "held" work origin's main never saw and
# the task read done. The fetch's FETCH_HEAD says where origin's main
# was: the ref holding another commit is read at its start value, named.
# A fetch with the start's refspecs makes it the remote's again.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
commit_a_feature feature
git push -q origin feature
git checkout -q main

git config remote.origin.fetch '+refs/heads/feature:refs/remotes/origin/main'
git fetch -q origin
git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'
git merge -q --ff-only origin/main
git branch -q -D feature
expect_open integrated "FETCH_HEAD.*origin's main" "owed"
expect_run 10 md check

# Fetched with the start's refspecs, origin/main is origin's main again.
git fetch -q origin
expect_open integrated "does not reach HEAD" "owed"
