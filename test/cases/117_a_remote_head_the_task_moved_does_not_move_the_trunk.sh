# Through the trunk: `git remote set-head origin
# feature` (an ordinary command) makes origin/HEAD name the task's own pushed
# branch, so the trunk would be origin/feature and integrated pass. origin/HEAD
# moved since the start by no fetch is not evidence: the trunk stays
# origin/main.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
commit_a_feature feature
git push -q -u origin feature
expect_open integrated "origin/main" "owed"

git remote set-head origin feature
expect_open integrated "origin/main" "owed"
expect_run 10 md check
