#!/usr/bin/env bash
# regression-tested asks that the change add or edit a test. A test that
# only moved was counted as one where its new file was not byte for byte
# a start test's (350) and held lines its own path did not (405): `git mv
# tests/old.rs tests/renamed.rs` and a blank line, the same re-indented,
# `cat tests/old.rs tests/other.rs > tests/all.rs` with both removed, or
# a `#[cfg(test)] mod tests` carried out of src/lib.rs into tests/lib.rs,
# each committed and pushed, read `done: complete` with no line of test
# the start did not hold. A line a test path adds counts only where it is
# not one the change took out of a path it deleted or modified (as copies,
# the space around each line aside); a test moved and edited counts on
# its edited lines.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src tests
printf 'pub fn a() -> u8 { 1 }\n' > src/a.rs
printf 'pub fn one() -> u8 { 1 }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn one_is_one() {\n        assert_eq!(2 + 2, 4);\n    }\n}\n' > src/lib.rs
printf '#[test]\nfn old() {\n    assert_eq!(1, 1);\n}\n' > tests/old.rs
printf '#[test]\nfn other() {\n    assert_eq!(2, 2);\n}\n' > tests/other.rs
start_on_origin
expect_run 0 md todo add "fix a"
expect_run 0 md todo done 1

# Renamed, with a blank line added.
echo 'pub fn b() {}' >> src/a.rs
git mv tests/old.rs tests/renamed.rs
echo >> tests/renamed.rs
commit_all "fix a, the test renamed"
git push -q origin main
expect_open regression-tested "tests/renamed.rs \(a test moved, not written" owed
expect_run 10 md check

# Re-indented as well.
sed -i 's/^    /\t/' tests/renamed.rs
commit_all "the test re-indented"
git push -q origin main
expect_open regression-tested "tests/renamed.rs \(a test moved" owed

# Two test files merged into one, both removed.
cat tests/renamed.rs tests/other.rs > tests/all.rs
git rm -q tests/renamed.rs tests/other.rs
commit_all "the tests in one file"
git push -q origin main
expect_open regression-tested "tests/all.rs \(a test moved" owed

# A source file's test module carried out into a test path.
printf 'pub fn one() -> u8 { 1 }\n' > src/lib.rs
printf '#[test]\nfn one_is_one() {\n    assert_eq!(2 + 2, 4);\n}\n' > tests/lib.rs
commit_all "the unit test moved to tests/"
git push -q origin main
expect_open regression-tested "tests/lib.rs \(a test moved" owed

# Moved and edited: an assertion changed counts.
sed -i 's/assert_eq!(1, 1);/assert_eq!(a::a(), 1);/' tests/all.rs
commit_all "a test for the fix"
git push -q origin main
expect_answer regression-tested pass "tests/all.rs"
expect_run 0 md check

# Moved and a new test added beside: counts.
git checkout -q HEAD~1 -- tests/all.rs
printf '\n#[test]\nfn b_exists() {\n    a::b();\n}\n' >> tests/lib.rs
commit_all "a new test beside the moved one"
git push -q origin main
expect_answer regression-tested pass "tests/lib.rs"
