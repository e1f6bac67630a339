# `git push . HEAD:refs/remotes/origin/main` is a
# push, but into the repository itself. Not evidence of origin.
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
git push -q . HEAD:refs/remotes/origin/main
expect_open pushed "origin/main" "owed"
expect_also integrated "origin/main" "owed"
expect_run 10 md check
