#!/usr/bin/env bash
# regression-tested counts a line added inside a test item of a source
# file. A test moved was counted as one: tests/old.rs removed and its test
# carried into a new `#[cfg(test)] mod tests` of src/a.rs (with a `use
# super::*;`), or src/lib.rs's test module carried into src/a.rs, each
# committed and pushed, read `done: complete` with no line of test the
# start did not hold. A line added inside a test item counts only where
# it is not one the change took out of a path it deleted or modified, and
# the head and foot of a module (a suite, a class) that wrap the tests it
# holds write none, nor does a `use`; a test written there counts.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src tests
printf 'pub fn a() -> u8 { 1 }\n' > src/a.rs
printf 'pub fn one() -> u8 { 1 }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn one_is_one() {\n        assert_eq!(2 + 2, 4);\n    }\n}\n' > src/lib.rs
printf 'use demo::a::a;\n\n#[test]\nfn old() {\n    assert_eq!(a(), 1);\n}\n' > tests/old.rs
start_on_origin
expect_run 0 md todo add "fix a"
expect_run 0 md todo done 1

# A test path's test carried into a new test module of src/a.rs.
git rm -q tests/old.rs
printf 'pub fn b() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn old() {\n        assert_eq!(a(), 1);\n    }\n}\n' >> src/a.rs
commit_all "fix a, the test moved beside it"
git push -q origin main
expect_open regression-tested "a test moved, not written: src/a.rs \([0-9]+ lines\)" owed
expect_run 10 md check

# Another file's test module carried in as well.
printf 'pub fn one() -> u8 { 1 }\n' > src/lib.rs
sed -i '$d' src/a.rs
printf '\n    #[test]\n    fn one_is_one() {\n        assert_eq!(2 + 2, 4);\n    }\n}\n' >> src/a.rs
commit_all "the other test module moved too"
git push -q origin main
expect_open regression-tested "a test moved, not written: src/a.rs" owed

# A test written in the module: counts.
sed -i '$d' src/a.rs
printf '\n    #[test]\n    fn b_runs() {\n        b();\n    }\n}\n' >> src/a.rs
commit_all "a test for the fix"
git push -q origin main
expect_answer regression-tested pass "src/a.rs \(fn b_runs"
expect_run 0 md check
