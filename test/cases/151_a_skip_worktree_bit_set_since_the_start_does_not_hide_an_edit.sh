# Issue 10 §5: `git update-index --skip-worktree` on a file edited since the
# start, with no sparse checkout configured, hides the edit from committed
# (git status hides it too). A bit set since the start does not hide a
# change: committed is owed, naming the file.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
mkdir -p src
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
echo "fn a() { 1 }" > src/lib.rs
expect_open committed "src/lib.rs" "owed"
git update-index --skip-worktree src/lib.rs
expect_open committed "src/lib.rs" "owed"
expect_run 10 md check
