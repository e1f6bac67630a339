#!/usr/bin/env bash
# markers-live asks that every limitation marker added since the start name
# a live issue. A line was "added" only where the file held no such line at
# the start, so a marker copied under new code from one the file already
# held (naming an issue closed since) was no marker added, and passed. The
# file's lines are counted: a second copy is a marker added.
source "$(dirname "$0")/../lib.sh" || exit 2

L="LIMIT""ATION"
fake_gh_with_issues
mkdir -p src tests
printf 'pub fn parse() {}\n// %s(#9): extension fields are not parsed\n' "$L" > src/lib.rs
commit_all "initial"
with_origin
on_forge acme/widgets 9 closed limitation
expect_run 0 md forge refresh
expect_run 0 md start "parse the trailer"

printf 'pub fn trailer() {}\n// %s(#9): extension fields are not parsed\n' "$L" >> src/lib.rs
echo '#[test] fn t() {}' > tests/trailer.rs
commit_all "parse the trailer"
git push -q origin main
expect_run 0 md forge refresh
expect_open markers-live "#9" refused

# Moved rather than copied: as many as at the start, none added.
printf 'pub fn parse() {}\npub fn trailer() {}\n// %s(#9): extension fields are not parsed\n' "$L" > src/lib.rs
commit_all "one marker, moved"
git push -q origin main
expect_answer markers-live pass "."
