#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# regression-tested counts a test the change adds or edits, read from the
# working tree. A test written and never committed, then acknowledged as
# a peer's (`majordomus ack no-untracked`, or `ack committed` for an edit
# to a tracked test: `ack` takes the worker's word), still counted as the
# task's test: done: complete, while no commit, and so no clone or CI,
# holds any test of the fix. A path the task acknowledged as not its
# work, and that its commits did not change, is no test of the task.

exempt_forge
mkdir -p src tests
cat >> .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "for t in tests/test_*.sh; do sh \"$t\" || exit 1; done"
inputs = ["**"]
TOML
lib_sh_beside_a_test tests/test_old.sh
fix_lib_sh_pushed

# A new test left untracked, acknowledged as a peer's.
printf '. src/lib.sh; [ "$a" = 2 ]\n' > tests/test_fix.sh
expect_run 0 md gate run unit
expect_run 0 md ack no-untracked --why "a peer's notes"
expect_open regression-tested "acknowledged as not this task's work.*tests/test_fix.sh" owed
expect_run 10 md check
expect_done_line "done: regression-tested=owed"
rm tests/test_fix.sh

# An edit to a tracked test left uncommitted, acknowledged as a peer's.
printf '. src/lib.sh; [ "$a" = 2 ]\n' >> tests/test_old.sh
expect_run 0 md gate run unit
expect_run 0 md ack committed --why "a peer's edit"
expect_open regression-tested "acknowledged as not this task's work.*tests/test_old.sh" owed
git checkout -q -- tests/test_old.sh

# The honest way: the test committed with the fix, which no
# acknowledgement covers.
printf '. src/lib.sh; [ "$a" = 2 ]\n' > tests/test_fix.sh
commit_all "test the fix"
git push -q origin main
expect_run 0 md gate run unit
expect_answer regression-tested pass "tests/test_fix.sh"
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
