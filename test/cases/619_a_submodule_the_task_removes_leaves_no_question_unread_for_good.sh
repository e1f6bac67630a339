#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The repository's only submodule lib; the task vendors it (its file
# copied into src/) and takes the submodule out as git says to: `git rm
# lib` and `git rm .gitmodules`, committed and pushed. git keeps lib's
# repository in .git/modules/lib, its core.worktree naming the directory
# gone. no-stash and nothing-accumulated answered unknown for good ("failed
# to resolve path '.git/modules/lib/../../../lib'"), their remedies
# (apply or drop a stash entry; date the branches by hand) changing
# nothing: `done` never completed. The repository is read bare.

pushed_project --libsrc
git -c protocol.file.allow=always submodule add -q "$case_root/libsrc" lib 2>/dev/null
git commit -qm "add lib"
git push -q origin main
expect_run 0 md start "vendor lib"
mkdir -p src tests
cp lib/l.txt src/l.txt
echo t > tests/l.txt
git rm -q lib
[ -z "$(git config -f .gitmodules --list 2>/dev/null)" ] || fail "setup: .gitmodules still names a submodule"
git rm -q -f .gitmodules
git add src tests
git commit -qm "vendor lib"
git push -q origin main
[ -d .git/modules/lib ] || fail "setup: git took lib's repository away"

expect_answer no-stash pass ""
expect_answer nothing-accumulated pass ""
expect_run 0 md check
expect_contains "done: complete"

# What the kept repository holds is still read: a branch made there during
# the task (before the removal) is owed, not passed.
git --git-dir=.git/modules/lib --work-tree=.git/modules/lib branch side HEAD
expect_open nothing-accumulated "branch side in the submodule lib" owed
git --git-dir=.git/modules/lib --work-tree=.git/modules/lib branch -D side > /dev/null
expect_run 0 md check
expect_contains "done: complete"
