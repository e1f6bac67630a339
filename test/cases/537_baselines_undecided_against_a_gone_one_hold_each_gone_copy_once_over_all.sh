#!/usr/bin/env bash
# README, "The closing questions": at the start an empty baseline (a header
# comment only) and a six-entry one. The task removes both and writes two
# new baselines, each holding one copy of `src/old.rs: unwrap`. The empty
# one gone leaves no move told, so both new ones are undecided and compared
# with the entries of every baseline gone; each was compared on its own, so
# the one copy the start held paid for a copy in each. Copies are compared
# as multisets (test/cases/462), and a copy gone allows one copy held over
# every baseline compared with it (test/cases/526): the second copy is an
# entry added. Held once, nothing is.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
exempt_forge
printf '# nothing yet\n' > .ai/repo/fmt-baseline.txt
printf 'src/old.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: panic\nsrc/d.rs: expect\nsrc/e.rs: expect\nsrc/f.rs: expect\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"

git rm -q .ai/repo/fmt-baseline.txt .ai/repo/lint-baseline.txt
printf 'src/old.rs: unwrap\n' > .ai/repo/unwrap-baseline.txt
printf 'src/old.rs: unwrap\n' > .ai/repo/panic-baseline.txt
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
commit_all "fix a"
git push -q origin main
expect_open no-new-debt 'unwrap-baseline.txt \(cannot be told from a baseline moved from .*each copy allowed once over every such baseline.*added `src/old.rs: unwrap` \(1 copy then, 2 now\)' refused

# Held once over both: the start's copy, nothing added.
printf 'src/c.rs: panic\n' > .ai/repo/panic-baseline.txt
commit_all "the panic baseline holds panics"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"
