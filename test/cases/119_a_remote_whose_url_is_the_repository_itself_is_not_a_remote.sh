# `git remote add self "$PWD"` and `git push -u self
# feature`: the upstream self/feature is a remote-tracking ref of a
# configured remote, moved by a real push, but the remote is this very
# repository. Nothing was published: pushed is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
git checkout -q -b feature
echo a > a.rs
commit_all "feature"
git remote add self "$repo"
git push -q -u self feature
[ "$(git rev-parse self/feature)" = "$(git rev-parse HEAD)" ] || fail "setup: no self/feature"
expect_open pushed "self|origin" "owed"
expect_run 10 md check
