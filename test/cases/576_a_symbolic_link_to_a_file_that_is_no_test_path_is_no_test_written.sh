#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# regression-tested counts a test path the change adds or edits. A
# symbolic link in a test path stands for the file it leads to (570), and
# one to a file the task changed held the lines the task wrote there: a
# link to the fix's own source (`ln -s ../src/lib.sh tests/fix_test.sh`),
# or to any file the task wrote outside a test path, counted as a test
# written, done: complete with no line of test written in a test path. A
# link writes no line of its own: what it leads to counts at its own
# path, where that is a test path.

exempt_forge
lib_sh_beside_a_test
fix_lib_sh_pushed

# A link to the fix's own source.
ln -s ../src/lib.sh tests/fix_test.sh
commit_all "test the fix"
git push -q origin main
expect_open regression-tested "tests/fix_test.sh \(a symbolic link to src/lib.sh: a link writes no line of its own" owed
expect_run 10 md check
expect_done_line "done: regression-tested=owed"

# A link to a file the task wrote outside a test path.
mkdir -p checks
printf '. src/lib.sh; [ "$a" = 2 ]\n' > checks/fix.sh
ln -sfn ../checks/fix.sh tests/fix_test.sh
commit_all "test the fix, in checks"
git push -q origin main
expect_open regression-tested "tests/fix_test.sh \(a symbolic link to checks/fix.sh" owed

# The honest way: the test in the test path, the link to it beside it.
git rm -q tests/fix_test.sh
git mv checks/fix.sh tests/fix_test.sh
ln -s fix_test.sh tests/fix_alias_test.sh
commit_all "test the fix"
git push -q origin main
expect_answer regression-tested pass "1 test path: tests/fix_test.sh"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
