# `git remote set-url origin "$PWD"` and a real
# `git fetch origin`: the ref moved by a fetch from origin's configured URL,
# but that URL is the repository itself, set since the start. Not evidence
# of the remote the task started with.
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
git remote set-url origin "$repo"
git fetch -q origin
[ "$(git rev-parse origin/main)" = "$(git rev-parse HEAD)" ] || fail "setup: the fetch did not move origin/main"
expect_open pushed "origin" "owed"
expect_also integrated "origin" "owed"
expect_run 10 md check
