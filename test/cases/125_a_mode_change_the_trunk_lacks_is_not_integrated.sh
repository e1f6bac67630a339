# A change that is only a file-mode change (chmod +x, committed
# and pushed to a branch) would be taken as integrated if only blob ids were
# compared: the trunk holds the same blob at the path. The trunk lacks the
# mode: integrated is owed, naming the path.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src scripts
echo "echo hi" > scripts/run.sh
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "make run.sh executable"
git checkout -q -b feature
chmod +x scripts/run.sh
commit_all "run.sh is executable"
git push -q -u origin feature
[ "$(git ls-tree origin/main scripts/run.sh | cut -c1-6)" = 100644 ] || fail "setup: the trunk has the mode already"
expect_open integrated "scripts/run.sh|mode" "owed"
expect_run 10 md check
