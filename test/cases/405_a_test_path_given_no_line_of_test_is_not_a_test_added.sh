#!/usr/bin/env bash
# regression-tested asks that the change add or edit a test. A test path
# that holds no line of test it did not hold at the start was counted as
# one: `mkdir tests && touch tests/.gitkeep` beside the fix, a blank line
# or re-indentation in an existing test, or lines only taken out of one,
# committed and pushed, each read `done: complete` with no test written.
# A test path counts where it holds a line (not blank) that its content
# at the start did not; a binary test file (test data) counts by any change.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src tests
echo 'pub fn a() {}' > src/a.rs
printf 'fn t() {\n    assert!(a());\n    assert!(b());\n}\n' > tests/old.rs
start_on_origin
expect_run 0 md todo add "fix a"
expect_run 0 md todo done 1

echo 'pub fn a() -> bool { true }' > src/a.rs
mkdir -p tests/new && touch tests/new/.gitkeep
commit_all "fix a"
git push -q origin main
expect_open regression-tested "tests/new/.gitkeep" owed
expect_run 10 md check

printf '\nfn t() {\n        assert!(a());\n    assert!(b());\n}\n\n' > tests/old.rs
commit_all "a blank line, an indentation"
git push -q origin main
expect_open regression-tested "tests/old.rs" owed

printf 'fn t() {\n    assert!(a());\n}\n' > tests/old.rs
commit_all "an assertion taken out"
git push -q origin main
expect_open regression-tested "tests/old.rs" owed

# A line of test added: counted.
printf 'fn t() {\n    assert!(a());\n    assert!(a() == true);\n}\n' > tests/old.rs
commit_all "a test for the fix"
git push -q origin main
expect_answer regression-tested "pass" "tests/old.rs"
expect_run 0 md check

# Test data that is not text counts by any change.
printf '\000\001' > tests/data.bin
commit_all "data"
git push -q origin main
git rm -q tests/new/.gitkeep
printf 'fn t() {\n    assert!(a());\n    assert!(b());\n}\n' > tests/old.rs
commit_all "the test back"
git push -q origin main
expect_answer regression-tested "pass" "tests/data.bin"
