# Through upstream-alive and pushed: feature's upstream was
# deleted on origin (gone); `git update-ref refs/remotes/origin/feature HEAD`
# recreates the ref locally, so upstream-alive and pushed would pass. The ref did
# not come from origin: the upstream is still gone.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
git checkout -q -b feature
echo a > a.rs
commit_all "feature"
git push -q -u origin feature
echo b > b.rs
commit_all "more"
git push -q origin --delete feature
expect_open upstream-alive "origin/feature" "owed"

git update-ref refs/remotes/origin/feature HEAD
expect_open upstream-alive "origin/feature" "owed"
expect_also pushed "origin" "owed unknown"
expect_run 10 md check
