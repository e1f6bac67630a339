# `git reflog expire --expire=now refs/stash` empties `git stash list`,
# but refs/stash still holds the stash and `git stash pop` brings the work
# back: the task's uncommitted edit was put away where no-stash, reading
# the list alone, did not look, and the task completed. The stash ref
# itself is read too.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
push_a_feature
echo "more" >> src/a.rs
git stash -q
expect_open no-stash "stash" "owed"
git reflog expire --expire=now refs/stash
[ -z "$(git stash list)" ] || fail "setup: git stash list still lists the stash"
git rev-parse -q --verify refs/stash > /dev/null || fail "setup: refs/stash is gone"
expect_open no-stash "stash" "owed"
expect_run 10 md check
git stash pop -q
git checkout -q -- src/a.rs
expect_answer no-stash "pass" "No stash entry"
