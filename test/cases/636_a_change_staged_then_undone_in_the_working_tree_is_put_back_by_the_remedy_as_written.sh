#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A task stages an edit (`git add src/a.rs`), then undoes it in the
# working tree (the editor's undo, or the file copied back): git's status
# lists `MM`, the index alone differing from HEAD, so `committed` is owed.
# Its remedy was `git commit -- src/a.rs`, which takes the working tree's
# content, HEAD's, and git refuses ("nothing to commit"): followed as
# written, the flow never passed. The same for a new file staged then
# removed (`AD`), and for a file the task committed, then staged again and
# put back as committed. Now the evidence says the index alone differs
# and the remedy puts it back (`git reset -q -- PATH`), which passes;
# beside a path the working tree changed, the commit naming both still
# does it, as git updates the index at each path it names.

mkdir -p src tests
echo 'pub fn a() {}' > src/a.rs
echo 'fn t() {}' > tests/a.rs
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "try an edit"

owed_then_remedied() {
  expect_open committed "the index alone differs from HEAD at $1: the working tree holds what HEAD holds" owed
  [ "$(remedy_of committed)" = "git reset -q -- $1" ] || fail "remedy: $(remedy_of committed)"
  follow_remedy committed
  [ -z "$(git status --porcelain)" ] || fail "the remedy left $(git status --porcelain)"
  expect_answer committed pass "No tracked file changed since the start is uncommitted"
}

# Staged, then the edit undone: `MM`.
cp src/a.rs "$case_root/a.rs"
echo 'pub fn a() { /* tried */ }' > src/a.rs
git add src/a.rs
cp "$case_root/a.rs" src/a.rs
[ "$(git status --porcelain)" = "MM src/a.rs" ] || fail "setup: git shows $(git status --porcelain)"
expect_run 1 git commit -q -m try -- src/a.rs
owed_then_remedied src/a.rs

# A new file staged, then removed: `AD`.
echo 'draft' > src/b.rs
git add src/b.rs
rm src/b.rs
[ "$(git status --porcelain)" = "AD src/b.rs" ] || fail "setup: git shows $(git status --porcelain)"
owed_then_remedied src/b.rs

# Committed since the start, then staged again and put back as committed.
echo 'pub fn a() { /* done */ }' > src/a.rs
echo 'fn t2() {}' >> tests/a.rs
commit_all "done"
git push -q origin main
cp src/a.rs "$case_root/a.rs"
echo 'pub fn a() { /* more */ }' > src/a.rs
git add src/a.rs
cp "$case_root/a.rs" src/a.rs
owed_then_remedied src/a.rs
expect_run 0 md check

# Beside a path the working tree changed: the commit naming both.
echo 'pub fn a() { /* more */ }' > src/a.rs
git add src/a.rs
cp "$case_root/a.rs" src/a.rs
echo 'pub fn c() {}' > src/c.rs
git add src/c.rs
git commit -q -m c -- src/c.rs
echo 'pub fn c() { /* c */ }' > src/c.rs
expect_open committed "src/a.rs" owed
expect_not_contains "the index alone"
[ "$(remedy_of committed)" = "git commit -- src/a.rs src/c.rs" ] || fail "remedy: $(remedy_of committed)"
follow_remedy committed
[ -z "$(git status --porcelain)" ] || fail "the remedy left $(git status --porcelain)"
git push -q origin main
expect_run 0 md check
