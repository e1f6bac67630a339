#!/usr/bin/env bash
# A repository of its own inside this one, untracked and not a submodule (a
# dependency cloned into vendor/dep, a scratch `git init`), is listed by
# git as one untracked path, `vendor/dep/`, whatever it holds. One there at
# the start was inherited by its path alone: the task's fix written into
# it, a file added there, or both committed in it, left `done: complete`
# while none of that work was in this repository. Inherited means the same
# content: a nested repository's is its HEAD and what its own status
# lists, so one changed since the start is the task's, named (a linked
# worktree of this repository inside the tree is a peer's, as ever).
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src tests
echo 'pub fn a() {}' > src/a.rs
exempt_forge
commit_all "initial"
with_origin
git init -q vendor/dep
(cd vendor/dep && echo 'pub fn d() {}' > d.rs && git add d.rs && git commit -qm d)
git status --porcelain | grep -qx '?? vendor/' || fail "setup: git does not list vendor/"
# A peer's linked worktree inside the tree: another worktree's work is
# never this task's, and its refs are this repository's own.
git worktree add -q --detach .worktrees/peer
expect_run 0 md start "fix the dependency's use"
echo t > tests/t.rs
git add tests && git commit -qm "a test" && git push -q origin main
expect_run 0 md check

echo 'pub fn fixed() {}' >> vendor/dep/d.rs
expect_open no-untracked "vendor/dep/" owed
expect_run 10 md check
echo 'pub fn e() {}' > vendor/dep/e.rs
expect_open no-untracked "vendor/dep/" owed
(cd vendor/dep && git add -A && git commit -qm "the fix")
expect_open no-untracked "vendor/dep/" owed
expect_run 10 md check

# Put back as it was at the start: inherited again.
(cd vendor/dep && git reset -q --hard HEAD~1 && git clean -qfd)
expect_run 0 md check
