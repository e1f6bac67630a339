#!/usr/bin/env bash
# majordomus keeps its own state under `.ai/local/` at the root of the
# repository it runs in, and skips that directory when it reads the
# working tree. The skip took a path relative to whichever repository was
# being read, so inside a submodule (lib/.ai/local/work.rs, which `git
# status` shows as lib holding untracked content) or inside a repository
# nested here untracked (vendor/.ai/local/work.rs, which vendor's own
# status lists: 404's rule) the task's work was taken for majordomus's
# state: committed and no-untracked passed. Only the root's `.ai/local/`
# is majordomus's; the same directory in a submodule or a nested
# repository is theirs, read as git reads it.
source "$(dirname "$0")/../lib.sh" || exit 2

superproject_with_lib
git init -q -b main vendor
(cd vendor && echo 'pub fn d() {}' > d.rs && git add d.rs && git commit -qm d)
expect_run 0 md start "work in lib and vendor"
mkdir -p tests && echo t > tests/t.rs
git add tests && git commit -qm "a test" && git push -q origin main
expect_run 0 md check

mkdir -p lib/.ai/local
echo 'pub fn work() {}' > lib/.ai/local/work.rs
git status --porcelain=v2 -uall | grep -q '^1 .M S..U .* lib$' || fail "setup: git does not show lib's untracked content"
expect_open committed "lib" owed
expect_run 10 md check
rm -r lib/.ai
expect_run 0 md check

mkdir -p vendor/.ai/local
echo 'pub fn work() {}' > vendor/.ai/local/work.rs
git -C vendor status --porcelain -uall | grep -q 'work.rs' || fail "setup: vendor's git does not list it"
expect_open no-untracked "vendor/" owed
expect_run 10 md check
rm -r vendor/.ai
# The root's own state directory, written at every check, is still skipped.
[ -f .ai/local/state/task.json ] || fail "setup: no state at the root"
expect_run 0 md check
