#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# regression-tested does not count a test path whose every line the start
# held there (a blank line, indentation: test/cases/405). Lines were
# compared as raw bytes: an editor's byte order mark put before an
# existing test made its first line one the start did not hold, and the
# test saved again as UTF-16 (with its mark, as editors write it) read as
# data that is not text, which counts by any change: done: complete with
# no test line written. A test is read as text: UTF-16 with its mark
# decoded, a UTF-8 mark taken off.

exempt_forge
mkdir -p src tests
echo 'a=1' > src/lib.sh
printf '. src/lib.sh\n[ -n "$a" ]\n' > tests/a_test.sh
fix_lib_sh_pushed

# A byte order mark put before the test.
{ printf '\xef\xbb\xbf'; git show HEAD:tests/a_test.sh; } > tests/a_test.sh.new
mv tests/a_test.sh.new tests/a_test.sh
commit_all "test the fix"
git push -q origin main
expect_open regression-tested "tests/a_test.sh \(no line it did not hold then" owed
expect_run 10 md check
expect_done_line "done: regression-tested=owed"

# The test saved again as UTF-16.
git show HEAD~1:tests/a_test.sh | iconv -f UTF-8 -t UTF-16 > tests/a_test.sh
commit_all "test the fix, as UTF-16"
git push -q origin main
expect_open regression-tested "tests/a_test.sh \(no line it did not hold then" owed

# The honest way: a line of test written, in UTF-16 still.
printf '. src/lib.sh\n[ -n "$a" ]\n[ "$a" = 2 ]\n' | iconv -f UTF-8 -t UTF-16 > tests/a_test.sh
commit_all "test the fix"
git push -q origin main
expect_answer regression-tested pass "1 test path: tests/a_test.sh"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
