#!/usr/bin/env bash
# test/cases/464, part 3: the task's own loosening of the policy, made in
# a second clone under this repository's own address, pushed and pulled,
# is held not in force. Under another address for the gate run and the
# check (`GIT_AUTHOR_EMAIL=...`, or `git config user.email` changed), the
# loosening read as a colleague's ("the start's policy moved on"): the
# gate ran `true` and `gates-green` passed while the start's test still
# failed. The addresses the start ran under stay the task's own
# (test/cases/482).
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo tests src
printf '[[exempt]]\nquestion = "backlog-not-grown"\nreason = "no forge here"\n\n[gates.unit]\nrun = "python3 -m unittest discover -s tests -q"\ninputs = ["**"]\n' > .ai/repo/majordomus.toml
printf 'import unittest\n\nclass Sum(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(sum([1, 2]), 4)\n' > tests/test_sum.py
echo 'def f(): return 1' > src/f.py
commit_all "initial, sum is wrong"
with_origin
expect_run 0 md start "fix sum"

git clone -q "$case_root/origin.git" "$case_root/mine"
(cd "$case_root/mine" && sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml &&
  git commit -qam "the gate passes here" && git push -q origin main)
git config fetch.unpackLimit 1
git pull -q
grep -q 'run = "true"' .ai/repo/majordomus.toml || fail "setup: the loosening was not pulled"

# Under the task's own address: not in force (test/cases/464).
expect_run 10 md gate run unit
expect_open gates-green "unit"

# Under another address for these two commands: still not in force.
GIT_AUTHOR_EMAIL=someone-else@example.com expect_run 10 md gate run unit
GIT_AUTHOR_EMAIL=someone-else@example.com expect_open gates-green "unit"

# The configured address changed: still not in force.
git config user.email someone-else@example.com
expect_run 10 md gate run unit
expect_open gates-green "unit"
