# `git branch --set-upstream-to=main` (branch.feature.remote
# is ".") would make pushed compare HEAD with a local branch: after merging
# the work into local main, pushed would pass with nothing pushed. A local branch
# is not a remote: pushed is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
git checkout -q -b feature
echo a > a.rs
commit_all "feature"
git branch -q --set-upstream-to=main feature
git branch -q -f main feature
[ "$(git config branch.feature.remote)" = "." ] || fail "setup: the upstream is not local"
expect_open pushed "origin/main|local|main" "owed"
expect_run 10 md check
