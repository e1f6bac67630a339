# The ref file written with an ordinary shell
# redirection (`git rev-parse HEAD > .git/refs/remotes/origin/main`): no
# reflog entry says how it moved, and its last entry names another commit.
# Not evidence of origin.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a change"
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "the change"
expect_open pushed "origin/main" "owed"
expect_also integrated "origin/main" "owed"
git pack-refs --all
git rev-parse HEAD > .git/refs/remotes/origin/main
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: the ref was not written"
expect_open pushed "origin/main" "owed"
expect_also integrated "origin/main" "owed"
expect_run 10 md check
