#!/usr/bin/env bash
# README, "Whose work it is": what arrived from a remote is not the task's.
# A task that makes no commit and writes no test ran `git pull --ff-only` of
# a colleague's pushed commit (another clone, another author, a fix and a
# test): `regression-tested` passed ("The change touches 1 test path"),
# `measurable` passed ("HEAD holds 1 commit made since the start"), `done:
# complete`. "The change" was read as HEAD against the start commit, so the
# fetched commit counted as the task's. Every ordinary way to take in a
# fetched commit without making one did the same: `fetch` then `reset
# --hard`, `rebase` (whose finish line names the fetched commit), `pull
# --rebase`, `merge --ff-only`, a push of it to a branch of the task's
# afterwards, origin/main moved by hand after the fetch. And a colleague's
# test added inside a file the task also edited counted as the task's test
# code once merged.
source "$(dirname "$0")/../lib.sh" || exit 2

unit_gate_policy
printf 'fn a() {}\n\n\n\nfn b() {}\n\n\n\n// end\n' > src/lib.rs
commit_all "initial"
with_origin

expect_run 0 md start "fix a"
colleague "fix a, with a test" 'sed -i "s/fn a() {}/fn a() { fixed }/" src/lib.rs; mkdir -p tests; echo "#[test] fn t(){}" > tests/a.rs'
git pull -q --ff-only
expect_run 0 md gate run unit
expect_run 10 md check
expect_open measurable "no commit the task made since the start \(HEAD holds 1 commit a fetch brought"
expect_also regression-tested "changed nothing since the start.*src/lib.rs, tests/a.rs" "exempt"

# The other ordinary ways to take a fetched commit in: none makes it the task's.
colleague "a second test" 'echo "#[test] fn u(){}" > tests/b.rs'
git fetch -q && git reset -q --hard origin/main
expect_open measurable "HEAD holds 2 commits a fetch brought"
# origin/main moved by hand since: no longer evidence, but what the fetch
# brought arrived all the same.
git update-ref refs/remotes/origin/main HEAD^
expect_open measurable "HEAD holds 2 commits a fetch brought"
git fetch -q
colleague "a third test" 'echo "#[test] fn v(){}" > tests/c.rs'
git fetch -q && git rebase -q origin/main
expect_open measurable "HEAD holds 3 commits a fetch brought"
colleague "a fourth test" 'echo "#[test] fn w(){}" > tests/d.rs'
git pull -q --rebase
expect_open measurable "HEAD holds 4 commits a fetch brought"
colleague "a fifth test" 'echo "#[test] fn x(){}" > tests/e.rs'
git fetch -q && git merge -q --ff-only origin/main
# Pushed to a branch of the task's afterwards, it is still the colleague's.
git push -q origin HEAD:refs/heads/review
expect_open measurable "HEAD holds 5 commits a fetch brought"
judge_answer regression-tested "exempt" "changed nothing since the start"
# (A branch the task pushed and left on the remote has accumulated: case 400.)
git push -q origin --delete review

# The task edits fn b (no test); the colleague adds a test module to the
# same file; `git pull` merges them. The colleague's test is theirs.
sed -i 's/fn b() {}/fn b() { 1 }/' src/lib.rs
commit_all "b returns 1"
colleague "a test module" 'printf "\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n" >> src/lib.rs'
git pull -q --no-rebase --no-edit
git push -q origin main
expect_run 0 md gate run unit
expect_open regression-tested "None of the 1 path changed since the start is a test path"
judge_answer measurable "pass" "HEAD holds 2 commits made since the start \(and 6 commits a fetch brought, not the task's, not counted\)"

# The task's own test is the task's.
printf '\n#[test]\nfn b_is_one() {}\n' >> src/lib.rs
commit_all "test b"
git push -q origin main
expect_run 0 md gate run unit
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
expect_answer regression-tested "pass" "adds or edits test code in 1 file: src/lib.rs \(fn b_is_one"
