#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# regression-tested counts a test path the change adds or edits. A
# submodule moved under a test directory (`git mv vendor/lib tests/lib`),
# its commit bumped there, or one added there (`git submodule add
# ../other tests/other`) is a path git records as a commit id (a
# gitlink), and a repository of its own cloned under tests/ is a
# directory: neither is a file, and each counted as a test written, done:
# complete with no line of test written by the task. A directory under a
# test path is that repository's, no test file.

export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
for lib in lib other; do
  git init -q -b main "$case_root/$lib"
  (cd "$case_root/$lib" && printf 'true\n' > t_test.sh && git add -A && git commit -qm "$lib")
done
exempt_forge
lib_sh_beside_a_test
git submodule add -q "$case_root/lib" vendor/lib 2> /dev/null
fix_lib_sh_pushed

# A submodule the start held moved under tests/, committed and pushed.
git mv vendor/lib tests/lib
git commit -qm "test the fix"
git push -q origin main
expect_open regression-tested "tests/lib \(a directory, a submodule or a repository of its own" owed
expect_run 10 md check
expect_done_line "done: regression-tested=owed"

# Its commit bumped there.
(cd "$case_root/lib" && printf 'true\ntrue\n' > u_test.sh && git add -A && git commit -qm more)
git -C tests/lib pull -q origin main 2> /dev/null
git add tests/lib
git commit -qm "test the fix, bumped"
git push -q origin main
expect_open regression-tested "tests/lib \(a directory, a submodule" owed

# Another added there.
git submodule add -q "$case_root/other" tests/other 2> /dev/null
git commit -qm "test the fix, vendored"
git push -q origin main
expect_open regression-tested "tests/other \(a directory, a submodule" owed

# A repository of its own under tests/, untracked (no-untracked owes it too).
git init -q tests/own
(cd tests/own && printf 'true\n' > x_test.sh && git add -A && git commit -qm own)
expect_open regression-tested "tests/own/ \(a directory" owed
expect_also no-untracked "tests/own/" owed
rm -rf tests/own

# The honest way: a test of the fix written and committed beside it.
printf '. src/lib.sh; [ "$a" = 2 ]\n' > tests/fix_test.sh
commit_all "test the fix"
git push -q origin main
expect_answer regression-tested pass "1 test path: tests/fix_test.sh"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
