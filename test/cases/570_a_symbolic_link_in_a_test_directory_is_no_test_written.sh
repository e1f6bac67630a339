#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# regression-tested counts a test path the change adds. A symbolic link
# is stored as its target's path, so a link made in a test directory
# (`ln -s a_test.sh tests/b_test.sh`, an alias of a test the start held;
# one to a source file the task did not change; one leading outside the
# working tree, or nowhere) held a "line" the start did not, and counted
# as a test written: done: complete with no test line written. A link
# stands for the file it leads to inside the working tree; one leading
# outside it or nowhere holds no test.

exempt_forge
lib_sh_beside_a_test
echo 'b=1' > src/util.sh
fix_lib_sh_pushed

# An alias of a test the start held.
ln -s a_test.sh tests/b_test.sh
commit_all "test the fix"
git push -q origin main
expect_open regression-tested "tests/b_test.sh \(the content tests/a_test.sh held\)" owed
expect_run 10 md check
expect_done_line "done: regression-tested=owed"

# A link to a source file the task did not change, one leading outside
# the working tree, one leading nowhere.
git rm -q tests/b_test.sh
ln -s ../src/util.sh tests/util_test.sh
ln -s "$case_root/outside.sh" tests/c_test.sh
printf 'true\n' > "$case_root/outside.sh"
ln -s missing.sh tests/d_test.sh
commit_all "test the fix"
git push -q origin main
expect_open regression-tested "tests/util_test.sh \(the content src/util.sh held\)" owed
expect_also regression-tested "tests/c_test.sh \(a symbolic link leading outside the working tree, nowhere, or to no file" owed
expect_also regression-tested "tests/d_test.sh \(a symbolic link" owed

# The honest way: a test written; a link to it beside it counts for
# nothing of its own, the test at its own path counts (576).
git rm -q tests/util_test.sh tests/c_test.sh tests/d_test.sh
printf '. src/lib.sh; [ "$a" = 2 ]\n' > tests/fix_test.sh
ln -s fix_test.sh tests/fix_alias_test.sh
commit_all "test the fix"
git push -q origin main
expect_answer regression-tested pass "1 test path: tests/fix_test.sh"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
