#!/usr/bin/env bash
# README, "The closing questions": an entry uncommitted at the start is
# inherited while it stays uncommitted; once the task commits it, it is the
# task's (test/cases/387). Moved from the baseline it sat in uncommitted
# into a new baseline and committed there, it was taken out of the start's
# entries, and so no longer fed the new baseline, which was named as a new
# tool's findings and not counted: a pass while the evidence called the
# entry the task's. A new baseline holding an entry the task committed is
# compared with the copies taken out of the start's baselines, which never
# hold that entry: it is added. Left uncommitted, the move is inherited.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
exempt_forge
printf 'src/a.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
# A peer's entry, uncommitted at the start.
printf 'src/peer.rs: unwrap\n' >> .ai/repo/lint-baseline.txt
expect_run 0 md start "fix a"

# Moved into a new baseline, both left uncommitted: still the peer's.
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
printf 'src/a.rs: unwrap\n' > .ai/repo/lint-baseline.txt
printf 'src/peer.rs: unwrap\n' > .ai/repo/peer-baseline.txt
git add src tests && git commit -q -m "fix a"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"

# Committed there with the task's work: the task's.
commit_all "and the baselines"
git push -q origin main
expect_open no-new-debt 'peer-baseline.txt \(new since the start, but holding 1 entry uncommitted at the start that the task committed.*added `src/peer.rs: unwrap`' refused
expect_also no-new-debt 'uncommitted at the start, then committed by the task' refused
