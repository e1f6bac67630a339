# `git remote remove origin` leaves no remote, so
# pushed would turn exempt ("nowhere to push") and the trunk fall back to
# the local main, which holds the work already: nothing pushed. A remote there at the start and gone now is named:
# pushed and integrated are not pass or exempt.
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
git remote remove origin
expect_open pushed "origin"
expect_also integrated "origin"
expect_run 10 md check
