#!/usr/bin/env bash
# README, "Whose work it is": a test path holding what a newest commit a
# fetch brought holds there is theirs. The task commits its fix and a test
# in tests/a.rs, then takes its test back out (`git revert`); a colleague
# adds a test of their own to the same tests/a.rs, pushed; the task pulls
# (`--rebase`). regression-tested passed ("The change touches 1 test path:
# tests/a.rs"): the task's commits touched the path, and its content,
# the colleague's exactly, differed from the start's. A test path whose
# content is an arrived commit's adds no test; the task's real test in the
# file, written after a colleague's next one was pulled in, counts.
source "$(dirname "$0")/../lib.sh" || exit 2

start_fixing_a_beside_a_test_file
printf '#[test]\nfn mine() { assert!(true) }\n' >> tests/a.rs
commit_all "a test"
git revert --no-edit HEAD > /dev/null
colleague "their test" 'sed -i "1i #[test]\nfn theirs() { assert_eq!(1, 1) }\n" tests/a.rs'
git pull -q --rebase
expect_run 0 md gate run unit
expect_open regression-tested "tests/a.rs \(the content a commit a fetch brought holds, not the task's\)"
# Pulled with a merge, the same.
colleague "their second test" 'sed -i "1i #[test]\nfn theirs_too() { assert_eq!(2, 2) }\n" tests/a.rs'
git pull -q --no-rebase --no-edit
expect_run 0 md gate run unit
expect_open regression-tested "tests/a.rs \(the content a commit a fetch brought holds"

# The task's real test, in the file a colleague edits again, pulled
# with --rebase: the task's.
printf '#[test]\nfn a_is_fixed() { assert!(true) }\n' >> tests/a.rs
commit_all "test a"
colleague "their third test" 'sed -i "1i #[test]\nfn theirs_three() { assert_eq!(3, 3) }\n" tests/a.rs'
git pull -q --rebase
git push -q origin main
expect_run 0 md gate run unit
expect_answer regression-tested "pass" "The change touches 1 test path: tests/a.rs"
