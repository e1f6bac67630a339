# `git config remote.origin.fetch
# '+refs/heads/*:refs/heads/*'` maps origin's branch onto the local branch
# itself, so the "upstream" of feature is refs/heads/feature, which holds
# HEAD: pushed would pass with nothing pushed. Only a remote-tracking ref of a
# remote is evidence of the remote: pushed is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
git checkout -q -b feature
echo a > a.rs
commit_all "feature"
git config branch.feature.remote origin
git config branch.feature.merge refs/heads/feature
git config --replace-all remote.origin.fetch '+refs/heads/*:refs/heads/*'
[ -z "$(git ls-remote origin refs/heads/feature)" ] || fail "setup: feature is on origin"
expect_open pushed "feature|origin" "owed"
expect_run 10 md check
