# Guard for issue 10 §5: in a sparse checkout configured before the start,
# the skip-worktree bits git set are not changes: committed and
# no-untracked pass, as git status says nothing.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src docs
echo "fn a() {}" > src/lib.rs
echo "# guide" > docs/guide.md
commit_all "initial"
git sparse-checkout set --no-cone "/src/" 2> /dev/null
[ ! -e docs/guide.md ] || fail "setup: the sparse checkout kept docs"
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
expect_run 0 md start "a"
echo "fn a() { 1 }" > src/lib.rs
commit_all "a"
expect_answer committed "pass" "."
judge_answer no-untracked "pass" "."
