# Issue 10 §5, the same through `git update-index --assume-unchanged`.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
mkdir -p src
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
echo "fn a() { 1 }" > src/lib.rs
expect_open committed "src/lib.rs" "owed"
git update-index --assume-unchanged src/lib.rs
expect_open committed "src/lib.rs" "owed"
expect_run 10 md check
