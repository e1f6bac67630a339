# With a remote: unpushed commits are owed, a squash merge on the trunk
# integrates, and a branch whose upstream was deleted is named.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "base" > README
commit_all "initial"
git init -q --bare -b main "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
git push -q -u origin main
git remote set-head origin main

expect_run 0 md start "a feature"
git checkout -q -b feature
mkdir -p src tests
echo "a" > src/a.rs
echo "t" > tests/a.rs
commit_all "feature"

expect_run 10 md check
expect_contains "pushed=owed"
expect_contains "integrated=owed"
expect_contains "it has no upstream, so the trunk"

git push -q -u origin feature
expect_run 10 md check
expect_not_contains "pushed=owed"
expect_contains "integrated=owed"

# Landed as a squash merge on the trunk.
git checkout -q main
git merge -q --squash feature
git commit -q -m "feature, squashed"
git push -q origin main
git checkout -q feature
expect_run 10 md check
expect_not_contains "integrated="

# The remote branch is deleted after landing: its upstream is gone.
git push -q origin --delete feature
expect_run 10 md check
expect_contains "upstream-alive=owed"
expect_contains "feature (tracks origin/feature)"
git branch -q --unset-upstream
expect_run 10 md check
expect_not_contains "upstream-alive="
