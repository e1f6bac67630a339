#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# Under `core.symlinks = false` majordomus reads the working tree through
# libgit2's status, which takes a skip-worktree file that is absent for a
# deletion, where git's status takes it for clean in a sparse checkout
# (the checkout leaves it out). A task narrowing its sparse checkout
# honestly (`git sparse-checkout set src tests .ai`) was owed `committed`
# for every file the narrowing left out, with the remedy `git commit --
# docs/guide.md`, which git refuses (the pathspec matches only files
# outside the checkout): a flow that could never pass. The fallback now
# judges such a file as the fast path does (status/sparse.rs): absent and
# left out by the checkout's definition is clean; absent where the
# definition includes it is a deletion its bit hides (580), still owed.

mkdir -p src tests docs
echo 'pub fn a() {}' > src/a.rs
echo 'pub fn legacy() {}' > src/legacy.rs
echo 'fn t() {}' > tests/a.rs
echo 'guide' > docs/guide.md
exempt_forge
commit_all "initial"
git config core.symlinks false
with_origin
git sparse-checkout set src tests docs .ai
expect_run 0 md start "drop the legacy module"
echo 'pub fn a() { /* no legacy */ }' > src/a.rs
echo 'fn t2() {}' >> tests/a.rs
commit_all "no legacy"
git push -q origin main

# Narrowed since the start: docs/ no longer checked out, nothing counted.
git sparse-checkout set src tests .ai
[ ! -e docs/guide.md ] || fail "setup: the checkout left docs/ in"
[ -z "$(git status --porcelain)" ] || fail "setup: git shows a change"
expect_run 0 md check
expect_answer committed pass "No tracked file"

# The deletion hidden by a bit set since the start, inside the checkout.
rm src/legacy.rs
git update-index --skip-worktree src/legacy.rs
[ -z "$(git status --porcelain)" ] || fail "setup: git shows the deletion"
expect_open committed "src/legacy.rs \(its skip-worktree bit was not set at the start\)" owed
expect_run 10 md check

# The bit cleared and the deletion committed.
git update-index --no-skip-worktree src/legacy.rs
git commit -q -m "drop legacy" -- src/legacy.rs
git push -q origin main
expect_run 0 md check
