#!/usr/bin/env bash
# Where no test path changed, regression-tested reads the lines added or
# edited inside test items of the changed files (`#[test]`, a pytest
# function, `it(`). A blank line put inside an existing `#[test] fn`, or
# its body re-indented, beside the fix, read "adds or edits test code" and
# `done: complete` with no test written. As for a test path
# (test/cases/405), a line counts where it is not blank and its text (the
# space around it aside) is not one the file held at the start.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src
lib() { printf 'pub fn a() -> u8 { %s }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n%s\n    }\n}\n' "$1" "$2" > src/lib.rs; }
lib 1 '        assert_eq!(super::a(), 1);'
start_on_origin
expect_run 0 md todo add "a returns 2"
expect_run 0 md todo done 1

lib 2 "$(printf '\n        assert_eq!(super::a(), 1);')"
commit_all "a returns 2"
git push -q origin main
expect_open regression-tested "." owed
expect_run 10 md check

lib 2 '            assert_eq!(super::a(), 1);'
commit_all "indentation"
git push -q origin main
expect_open regression-tested "." owed

lib 2 '        assert_eq!(super::a(), 2);'
commit_all "the test follows the fix"
git push -q origin main
expect_answer regression-tested pass "src/lib.rs \(fn t"
expect_run 0 md check
