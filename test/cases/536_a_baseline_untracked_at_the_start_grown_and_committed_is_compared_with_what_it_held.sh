#!/usr/bin/env bash
# README, "The closing questions": a baseline untracked at the start (a
# peer's, one entry, in the start snapshot) that the task grows by an entry
# and then commits whole with `git add -A` and pushes was dropped from the
# start's baselines, as one the task wrote: read as new since the start, it
# was named as debt already there and not counted, and the pass put the
# task's entry on the trunk. A baseline the start snapshot held, tracked or
# not, is compared with what the start held, whatever git now says of it:
# its entries then stay the start's, and what it gained is added. Committed
# unchanged, it adds nothing.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
exempt_forge
printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin

# A peer's new baseline, untracked at the start.
printf 'src/peer.rs: expect\n' > .ai/repo/clippy-baseline.txt
expect_run 0 md start "fix a"
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
git add src tests && git commit -q -m "fix a"
git push -q origin main

# Committed as it was at the start: the start's debt, nothing added.
commit_all "the peer's lints"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"

# Grown by the task and committed: its entry is added.
printf 'src/lib.rs: expect\n' >> .ai/repo/clippy-baseline.txt
commit_all "fix a, and the lints"
git push -q origin main
git show origin/main:.ai/repo/clippy-baseline.txt | grep -q 'src/lib.rs: expect' || fail "the trunk does not hold the entry"
expect_open no-new-debt 'clippy-baseline.txt \(1 entry then, 2 now; added `src/lib.rs: expect`\)' refused
