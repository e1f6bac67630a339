#!/usr/bin/env bash
# regression-tested asks that the change add or edit a test. Every file
# in a test directory counted as one, prose included: the fix beside a
# committed `tests/README.md` reading "TODO: write a test for a" read
# `done: complete`. A document (.md, .rst, .adoc, .org) is prose about
# tests wherever it lies; an expected output in a test directory (.txt)
# is test data and still counts, as the test beside the fix does.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src tests
echo 'pub fn a() {}' > src/a.rs
echo 'fn t() {}' > tests/old.rs
start_on_origin

echo 'pub fn a() -> bool { true }' > src/a.rs
echo 'TODO: write a test for a' > tests/README.md
commit_all "fix a"
expect_open regression-tested "None of the 2 paths" owed

mkdir -p tests/fixtures
echo 'true' > tests/fixtures/a.expected.txt
commit_all "the expected output of a"
expect_answer regression-tested pass "tests/fixtures/a.expected.txt"
