#!/usr/bin/env bash
# README, "Whose work it is": within a file both changed, the task's lines
# are those neither the start nor any newest commit a fetch brought holds.
# The task commits its fix and only a blank line appended to tests/a.rs (no
# test: alone, regression-tested is owed); a colleague adds a test of their
# own to the same tests/a.rs, pushed; the task pulls (`--rebase`, or with a
# merge). regression-tested passed ("The change touches 1 test path:
# tests/a.rs"): the path was the task's (its commit touched it) and its
# content was compared with the start's only, so the colleague's test read
# as a line the task added. A test path's lines are counted against the
# start and against each newest arrived commit. The task's own test in the
# same file, a conflict with the colleague's resolved by keeping both,
# still counts.
source "$(dirname "$0")/../lib.sh" || exit 2

start_fixing_a_beside_a_test_file
printf "\n" >> tests/a.rs
commit_all "a blank line in the tests"
expect_run 0 md gate run unit
expect_open regression-tested "tests/a.rs \(no line it did not hold then"
colleague "their test" 'sed -i "1i #[test]\nfn theirs() { assert_eq!(1, 1) }\n" tests/a.rs'
git pull -q --rebase
expect_run 0 md gate run unit
expect_open regression-tested "tests/a.rs \(no line that neither its content then nor a commit a fetch brought holds"

# Pulled with a merge: their second test is theirs too, beside the task's
# blank line and a line of the start's moved.
colleague "their second test" 'sed -i "1i #[test]\nfn theirs_too() { assert_eq!(2, 2) }\n" tests/a.rs'
sed -i '/^\/\/ end$/d' tests/a.rs && printf '// end\n\n' >> tests/a.rs
commit_all "tidy the tests"
git pull -q --no-rebase --no-edit >/dev/null
expect_run 0 md gate run unit
expect_open regression-tested "tests/a.rs \(no line that neither"

# The task's own test, conflicting with a colleague's at the file's end,
# resolved by keeping both: the resolution is the task's where it differs
# from both sides.
colleague "their third test" 'printf "#[test]\nfn theirs_three() { assert_eq!(3, 3) }\n" >> tests/a.rs'
printf '#[test]\nfn a_is_fixed() { assert!(true) }\n' >> tests/a.rs
commit_all "test a"
git pull -q --no-rebase --no-edit >/dev/null 2>&1 && fail "the pull was meant to conflict"
git show :3:tests/a.rs > tests/a.rs
printf '#[test]\nfn a_is_fixed() { assert!(true) }\n' >> tests/a.rs
git add tests/a.rs && git commit -q --no-edit
git push -q origin main
expect_run 0 md gate run unit
expect_answer regression-tested "pass" "The change touches 1 test path: tests/a.rs"
