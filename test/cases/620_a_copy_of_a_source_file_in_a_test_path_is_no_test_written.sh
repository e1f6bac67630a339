#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# regression-tested counts a test path the change adds or edits. A copy of
# a source file put in a test path (`cp src/lib.sh tests/lib_test.sh`)
# holds no line of test, only the source's own lines, yet counted as a
# test written: done: complete with no test. A test path whose content is
# a non-test file's (in the index, or a path the change holds, as it is
# now, at the start or in HEAD), or one of the changed ones' lines again
# with only the space around them changed, writes no test.

exempt_forge
lib_sh_beside_a_test
echo 'b=1' > src/util.sh
fix_lib_sh_pushed

# The fix's own source copied into a test path.
cp src/lib.sh tests/lib_test.sh
commit_all "test the fix"
git push -q origin main
expect_open regression-tested "tests/lib_test.sh \(a copy of src/lib.sh, a file outside a test path: it writes no test" owed
expect_run 10 md check
expect_done_line "done: regression-tested=owed"

# A source file the task did not change, copied.
git rm -q tests/lib_test.sh
cp src/util.sh tests/util_test.sh
commit_all "test util"
git push -q origin main
expect_open regression-tested "tests/util_test.sh \(a copy of src/util.sh" owed

# The fix copied with its line endings and indentation changed.
git rm -q tests/util_test.sh
printf '  a=2\r\n\r\n' > tests/lib_test.sh
commit_all "test the fix again"
git push -q origin main
expect_open regression-tested "tests/lib_test.sh \(a copy of src/lib.sh" owed

# The honest way: a test written, a copy of the source beside it as a fixture.
git rm -q tests/lib_test.sh
mkdir -p tests/fixtures
cp src/lib.sh tests/fixtures/lib.sh
printf '. tests/fixtures/lib.sh; [ "$a" = 2 ]\n' > tests/fix_test.sh
commit_all "test the fix"
git push -q origin main
expect_answer regression-tested pass "1 test path: tests/fix_test.sh"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
