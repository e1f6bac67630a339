#!/usr/bin/env bash
# README, "The closing questions": the lint baseline (committed, one entry)
# is deleted in the working tree, uncommitted, when the task starts, so the
# start snapshot holds no such baseline. The task restores it (`git
# checkout -- FILE`), appends an entry of its own, commits and pushes: read
# against the snapshot alone, the restored file was new since the start and
# not counted. What the start held of a baseline is what its working tree
# or its commit held there, whichever held more: the entry the task
# appended was in neither, and is added. Restored as it was, nothing is.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
exempt_forge
printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin

rm .ai/repo/lint-baseline.txt          # uncommitted at the start
expect_run 0 md start "fix a"

# Restored as the start commit holds it: the start's, nothing added.
git checkout -- .ai/repo/lint-baseline.txt
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
commit_all "fix a"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"

# Grown by the task: the entry is added.
printf 'src/lib.rs: unwrap\n' >> .ai/repo/lint-baseline.txt
commit_all "and a lint"
git push -q origin main
git show origin/main:.ai/repo/lint-baseline.txt | grep -q 'src/lib.rs: unwrap' || fail "the trunk does not hold the entry"
expect_open no-new-debt 'lint-baseline.txt \(1 entry then, 2 now; added `src/lib.rs: unwrap`\)' refused
