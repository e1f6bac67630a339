#!/usr/bin/env bash
# README, "The closing questions": an entry a peer appended to the lint
# baseline was uncommitted when the task started; the task's `git add -A`
# commits it with its fix and the push puts it on the trunk. `no-new-debt`
# compared the working tree with the start snapshot, which held the entry,
# and passed while the trunk gained it. An entry the task commits is the
# task's, compared with the start commit; one left uncommitted stays
# inherited.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
exempt_forge
printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin

# A peer's entry, uncommitted at the start.
printf 'src/lib.rs: unwrap\n' >> .ai/repo/lint-baseline.txt
expect_run 0 md start "fix a"

# Left uncommitted, it is inherited.
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
git add src tests && git commit -q -m "fix a"
git push -q origin main
expect_answer no-new-debt "pass" "No entry was added"

# Committed with the task's work and pushed: the task's.
echo "#[test] fn u(){}" > tests/b.rs
commit_all "and a test"
git push -q origin main
expect_run 10 md check
expect_open no-new-debt "added \`src/lib.rs: unwrap\`.*uncommitted at the start, then committed by the task" "refused"
git show origin/main:.ai/repo/lint-baseline.txt | grep -q 'src/lib.rs: unwrap' || fail "the trunk does not hold the entry"
