# committed's remedy, taken from check --json and run as written, commits
# the tracked files the task changed, and only those: a file that was
# already dirty at the start, staged even, stays out of the commit.
source "$(dirname "$0")/../lib.sh" || exit 2

echo one > a.txt
echo two > 'b file.txt'
echo old > inherited.txt
commit_all "initial"
echo "dirty before the task" >> inherited.txt
git add inherited.txt
expect_run 0 md start "edit a and b"

echo "the task's edit" >> a.txt
echo "the task's edit" >> 'b file.txt'
expect_open committed "a.txt" "owed"
follow_remedy committed
expect_status committed pass
git diff --cached --quiet -- inherited.txt && fail "the inherited staged change left the index"
git show --name-only --format= HEAD | grep -qx inherited.txt && fail "the remedy committed the inherited file"
git show --name-only --format= HEAD | grep -qx 'b file.txt' || fail "the remedy did not commit 'b file.txt'"
true
