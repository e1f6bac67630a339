#!/usr/bin/env bash
# `.ai/local/` is majordomus's own state: an untracked file there is no
# reading's. A file the index or a commit holds is the user's content
# wherever it lies: work force-added there (`git add -f`) is uncommitted
# until committed, a commit of it outside the declared scope is out of
# scope, and an edit of a file tracked there before the start is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src .ai/local
echo 'fn a() {}' > src/a.rs
echo 'kept' > .ai/local/kept.txt
git add -f .ai/local/kept.txt
exempt_forge
commit_all "initial"
expect_run 0 md start "fix a" --scope src

# Untracked under .ai/local: majordomus's own, and still not counted.
echo scratch > .ai/local/notes.txt
expect_answer no-untracked pass "No untracked"

echo 'fn real_work() {}' > .ai/local/work.rs
git add -f .ai/local/work.rs
[ "$(git status --porcelain -- .ai/local/work.rs)" = "A  .ai/local/work.rs" ] || fail "git does not list the file staged"
expect_open committed "\.ai/local/work\.rs" owed
expect_run 10 md check
expect_contains "git rm -r --cached -- .ai/local"

git commit -q -m "work"
expect_open scoped "outside the scope src: \.ai/local/work\.rs" refused
expect_run 10 md check
expect_contains "scoped=refused"

# Tracked there before the start, edited since.
echo 'edited' > .ai/local/kept.txt
expect_open committed "\.ai/local/kept\.txt" owed
