# A file dirty at the start is inherited while it keeps that content. Its
# directory replaced by a link to a copy holding the same content is the
# file deleted to git (git never follows a link in a path's leading
# directories), and so to every reader of content: committed is owed,
# naming it, not passed as inherited.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src/deep
echo 'fn c() {}' > src/deep/c.rs
echo 'fn a() {}' > src/a.rs
commit_all "initial"
echo 'fn c() { /* the user'"'"'s edit */ }' > src/deep/c.rs
expect_run 0 md start "a task beside an edit of the user's"
expect_contains "inherited: 1 dirty"
expect_answer committed "pass" "already dirty at the start.*src/deep/c.rs"
mv src/deep deep-copy
ln -s ../deep-copy src/deep
git status --porcelain | grep -q '^ D src/deep/c.rs' || fail "setup: git does not see the file deleted"
expect_open committed "src/deep/c.rs" "owed"
