#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# In a sparse checkout git's status takes a skip-worktree file that is
# absent for one the checkout leaves out, whatever put the bit there. The
# task deleted src/legacy.rs, inside the cone, and hid the deletion with
# `git update-index --skip-worktree src/legacy.rs`: git status clean, and
# the reading took every absent skip-worktree file of a sparse checkout
# for clean, so `committed` passed, `done: complete`, while no commit
# deletes the file (a clone still has it). A bit set since the start hides
# nothing (402, 407): the checkout's definition (`.git/info/sparse-checkout`)
# tells a file it leaves out from one it includes, whose absence only the
# bit hides, and that one is a deletion, counted and named with its bit.
# The honest ways pass: the checkout narrowed since the start (`git
# sparse-checkout set`), its files left out counting for nothing; the bit
# cleared and the deletion committed.

mkdir -p src tests docs
echo 'pub fn a() {}' > src/a.rs
echo 'pub fn legacy() {}' > src/legacy.rs
echo 'fn t() {}' > tests/a.rs
echo 'guide' > docs/guide.md
exempt_forge
commit_all "initial"
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
expect_run 0 md check
expect_answer committed pass "No tracked file"

# The deletion hidden by a bit set since the start.
rm src/legacy.rs
git update-index --skip-worktree src/legacy.rs
[ -z "$(git status --porcelain)" ] || fail "setup: git shows the deletion"
expect_open committed "src/legacy.rs \(its skip-worktree bit was not set at the start\)" owed
expect_advice committed
expect_run 10 md check

# The bit cleared and the deletion committed.
git update-index --no-skip-worktree src/legacy.rs
git commit -q -m "drop legacy" -- src/legacy.rs
git push -q origin main
expect_run 0 md check
