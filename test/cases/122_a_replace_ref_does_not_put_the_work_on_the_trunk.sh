# A guard: `git replace --graft` (a replace ref, the modern
# graft) is already ignored by the reading: pushed and integrated stay owed.
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

git replace --graft "$trunk" "$(git rev-parse origin/main~1)" "$work"
git merge-base --is-ancestor "$work" origin/main || fail "setup: git does not honour the replace ref"
expect_open pushed "origin/main" "owed"
expect_also integrated "origin/main" "owed"
