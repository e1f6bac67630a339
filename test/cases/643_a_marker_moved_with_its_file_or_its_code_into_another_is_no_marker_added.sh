#!/usr/bin/env bash
# markers-live asks that every limitation marker added since the start name
# a live issue. A line was added where its own path held fewer copies of it
# at the start, so `git mv src/parse.rs src/reader.rs` of a file holding an
# old marker (its issue closed since), or a function carried with its
# marker into another file, added that marker at the new path: refused,
# and the only way on was to edit a marker the task never wrote. A marker
# line the change took out of one path (the space around it aside) now
# stands for one copy added at another: moved, not written. A copy, the
# old one kept, is still added (test/cases/438), and so is a new marker.
source "$(dirname "$0")/../lib.sh" || exit 2

L="LIMIT""ATION"
fake_gh_with_issues
mkdir -p src tests
printf 'pub fn parse() {}\n// %s(#9): extension fields are not parsed\n' "$L" > src/parse.rs
printf 'pub fn emit() {}\n' > src/emit.rs
commit_all "initial"
with_origin
on_forge acme/widgets 9 closed limitation
expect_run 0 md forge refresh
expect_run 0 md start "rename the parser"

git mv src/parse.rs src/reader.rs
echo '#[test] fn t() {}' > tests/reader.rs
commit_all "parse.rs is reader.rs"
git push -q origin main
expect_run 0 md forge refresh
expect_answer markers-live pass "No limitation marker was added"

# Carried with its function into another file, indented there.
printf 'pub fn parse() {}\n' > src/reader.rs
printf 'pub fn emit() {}\nmod wire {\n    // %s(#9): extension fields are not parsed\n}\n' "$L" > src/emit.rs
commit_all "the limit moves to emit"
git push -q origin main
expect_answer markers-live pass "No limitation marker was added"

# Copied, the old one kept: a marker added.
printf 'pub fn parse() {}\n// %s(#9): extension fields are not parsed\n' "$L" > src/reader.rs
commit_all "a second copy"
git push -q origin main
expect_run 0 md forge refresh
expect_open markers-live "src/reader.rs:2" refused

# Moved, and a marker of other words written beside it: that one is added.
printf 'pub fn parse() {}\n// %s(#9): trailers are not parsed\n' "$L" > src/reader.rs
commit_all "a new limit"
git push -q origin main
expect_run 0 md forge refresh
expect_open markers-live "src/reader.rs:2" refused
