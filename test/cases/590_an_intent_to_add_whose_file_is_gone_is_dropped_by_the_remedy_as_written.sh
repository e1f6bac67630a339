#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A task marks a new file it means to add (`git add -N notes.rs`), then
# decides against it and deletes the file: git's status lists the intent
# to add as deleted (`.D`), so `committed` is owed. Its remedy was `git
# commit -- notes.rs`, which git refuses ("nothing added to commit": a
# commit takes nothing of an intent whose file is gone), and the evidence
# called it a file whose content is what it was at the start: followed as
# written, the flow never passed. Now it is named as an intent to add
# whose file is gone, and the remedy drops the intent (`git rm
# --cached -q -- notes.rs`), which passes; a commit naming it beside other
# paths drops it too, as git does.

mkdir -p src tests
echo 'pub fn a() {}' > src/a.rs
echo 'fn t() {}' > tests/a.rs
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "tidy the notes"
echo 'pub fn a() { /* tidied */ }' > src/a.rs
echo 'fn t2() {}' >> tests/a.rs
commit_all "tidy"
git push -q origin main

echo 'draft' > notes.rs
git add -N notes.rs
rm notes.rs
[ "$(git status --porcelain)" = " D notes.rs" ] || fail "setup: git shows $(git status --porcelain)"
expect_open committed "1 intent to add \(git add -N\) whose file is gone remains in the index: notes.rs" owed
[ "$(remedy_of committed)" = "git rm --cached -q -- notes.rs" ] || fail "remedy: $(remedy_of committed)"
follow_remedy committed
[ -z "$(git status --porcelain)" ] || fail "the remedy left $(git status --porcelain)"
expect_run 0 md check

# Beside a file the task changed: the commit naming both drops the intent.
echo 'draft' > notes.rs
git add -N notes.rs
rm notes.rs
echo 'fn t3() {}' >> tests/a.rs
expect_open committed "1 tracked file changed since the start is not committed: tests/a.rs; 1 intent to add" owed
follow_remedy committed
[ -z "$(git status --porcelain)" ] || fail "the remedy left $(git status --porcelain)"
git push -q origin main
expect_run 0 md check
