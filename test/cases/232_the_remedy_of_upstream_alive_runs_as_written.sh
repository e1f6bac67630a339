# upstream-alive's remedy, taken from check --json and run as written,
# unsets the upstream that is gone; the question then passes.
source "$(dirname "$0")/../lib.sh" || exit 2

echo one > a.txt
commit_all "initial"
with_origin
git checkout -q -b feature
git push -q -u origin feature
expect_run 0 md start "the feature"

git push -q origin --delete feature
git fetch -q --prune origin
expect_open upstream-alive "feature" "owed"
follow_remedy upstream-alive
expect_status upstream-alive pass
