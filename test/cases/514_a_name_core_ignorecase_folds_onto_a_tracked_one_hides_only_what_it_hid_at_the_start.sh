#!/usr/bin/env bash
# core.ignoreCase = true held since before the start (a repository copied
# from a case-insensitive machine, or the user's setting) on a file system
# that tells case apart: a NEW file src/LIB.RS beside the tracked src/lib.rs
# (or SRC/lib.rs, a directory told apart only by case) is folded by git
# onto the tracked path and never listed, so the task's work, in no commit,
# read `done: complete`. The rule case 407 set for the bits: a setting held
# since the start hides only what it hid then. A file the case fold hides
# counts as untracked unless the start found it so with the same content,
# and is named as such; the remedy commits it with the setting off for the
# command (`git add` under it takes the file for the tracked path). A file
# the fold hid at the start stays the user's while its content is the same.
# The tracked side: src/lib.rs replaced by a case variant holding other
# content is read deleted, as git reads it.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
mkdir -p src docs
echo 'fn a() {}' > src/lib.rs
echo 'notes' > docs/notes.md
git config core.ignorecase true
exempt_forge
commit_all "initial"
with_origin
# The user's own collision, there before the start: inherited.
echo 'the user'"'"'s draft' > docs/NOTES.md
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git lists the user's file"
expect_run 0 md start "a helper"
md todo add "write the helper" >/dev/null
printf 'pub fn the_work() -> u32 { 42 }\n' > src/LIB.RS
mkdir SRC
echo 'more work' > SRC/lib.rs
md todo done 1 >/dev/null
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git lists the new files"
expect_open no-untracked "src/LIB.RS \(untracked: its name differs from a tracked path's only by case" owed
expect_also no-untracked "SRC/lib.rs \(untracked: its name differs"
expect_not_contains "docs/NOTES.md"
expect_run 10 md check
expect_not_contains "done: complete"

# Committed with the setting off for the command, as the remedy says.
mkdir -p tests
echo 'assert the_work() == 42' > tests/helper.rs
git -c core.ignoreCase=false add -- src/LIB.RS SRC/lib.rs tests/helper.rs
git -c core.ignoreCase=false commit -q -m "the helper" -- src/LIB.RS SRC/lib.rs tests/helper.rs
git push -q origin main
expect_answer no-untracked pass "No untracked"
expect_run 0 md check

# The user's file changed since the start is the task's change.
echo 'edited by the task' > docs/NOTES.md
expect_open no-untracked "docs/NOTES.md \(untracked: its name differs" owed
echo 'the user'"'"'s draft' > docs/NOTES.md
expect_answer no-untracked pass "No untracked"

# A tracked file replaced by its case variant with other content: deleted.
rm src/lib.rs
echo 'fn a() { changed }' > src/Lib.rs
git status --porcelain | grep -q '^ D src/lib.rs$' || fail "setup: git does not read src/lib.rs deleted"
expect_open committed "src/lib.rs" owed
