# One line in .git/info/grafts gives the trunk's tip a second
# parent, the task's commit: libgit2 honours grafts, so pushed and
# integrated would pass with nothing pushed. libgit2 cannot be told to
# ignore them: both are unknown while a graft exists, never pass.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
commit_a_feature feature
work=$(git rev-parse HEAD)
# Someone else moves the trunk on meanwhile.
moved=$(git commit-tree -p origin/main -m "trunk moves on" "origin/main^{tree}")
git push -q origin "$moved:refs/heads/main"
git fetch -q origin
trunk=$(git rev-parse origin/main)
expect_open pushed "origin/main" "owed"
expect_also integrated "origin/main" "owed"

mkdir -p .git/info
echo "$trunk $(git rev-parse origin/main~1) $work" >> .git/info/grafts
git merge-base --is-ancestor "$work" origin/main 2> /dev/null || fail "setup: git does not honour the graft"
expect_open pushed "origin/main|graft"
expect_also integrated "origin/main|graft"
expect_run 10 md check
