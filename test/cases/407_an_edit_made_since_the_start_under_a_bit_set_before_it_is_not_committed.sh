#!/usr/bin/env bash
# A bit on an index entry set before the start is the user's own
# configuration (`git update-index --skip-worktree config/local.yml`, the
# usual way to keep a local setting out of `git status`), and git's answer
# stood for it: the task's own edit of that file, made since the start and
# never committed, read `done: complete` while the fix depended on it.
# What the start found under the bit is inherited (the user's local edit);
# content changed since the start is the task's change, counted and named
# with its bit, whatever bit hides it (assume-unchanged alike). The remedy
# is advice: `git commit -- PATH` commits nothing under skip-worktree, and
# the bit is the user's to clear.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src config tests
echo 'pub fn a() {}' > src/a.rs
echo 'debug: false' > config/local.yml
echo 'level: 1' > config/tuning.yml
exempt_forge
commit_all "initial"
with_origin
echo 'debug: true' > config/local.yml
git update-index --skip-worktree config/local.yml
git update-index --assume-unchanged config/tuning.yml
expect_run 0 md start "a feature flag"
echo 'pub fn a() { flag() }' > src/a.rs
echo t > tests/a.rs
commit_all "a feature flag"
git push -q origin main
expect_run 0 md check

echo 'feature: on' >> config/local.yml
[ -z "$(git status --porcelain)" ] || fail "setup: git shows the file"
expect_open committed "config/local.yml \(changed since the start under its skip-worktree bit" owed
expect_advice committed
expect_run 10 md check
echo 'debug: true' > config/local.yml
expect_run 0 md check

echo 'level: 2' > config/tuning.yml
[ -z "$(git status --porcelain)" ] || fail "setup: git shows the file"
expect_open committed "config/tuning.yml \(changed since the start under its assume-unchanged bit" owed
expect_run 10 md check
