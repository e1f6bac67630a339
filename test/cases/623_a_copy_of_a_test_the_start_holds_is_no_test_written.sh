#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# regression-tested counts a test path the change adds or edits. A test
# moved (`git mv`) holds what a test path held at the start, and is not
# counted (350); a test copied (`cp tests/a_test.sh tests/b_test.sh`),
# the start's test left where it was, was: the same test twice, counted
# as one written, done: complete. A test path whose content is what a
# test path the change did not touch holds in the index writes no test.

exempt_forge
lib_sh_beside_a_test
fix_lib_sh_pushed

cp tests/a_test.sh tests/b_test.sh
commit_all "test the fix"
git push -q origin main
expect_open regression-tested "tests/b_test.sh \(the content tests/a_test.sh held\)" owed
expect_run 10 md check
expect_done_line "done: regression-tested=owed"

# The honest way: the copy edited into a test of the fix.
printf '. src/lib.sh; [ "$a" = 2 ]\n' > tests/b_test.sh
commit_all "test the fix"
git push -q origin main
expect_answer regression-tested pass "1 test path: tests/b_test.sh"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
