#!/usr/bin/env bash
# README, "The policy in force": a policy change made only by commits that
# arrived from a remote (a colleague's, fetched; none made here) is the
# start's policy moved on, in force; one the task made stays its own. A
# colleague moves the tests (`git mv tests checks`) and changes the gate's
# `run` to match, on the trunk; the task pulls it, adds its fix and test,
# pushes. The start's command ran over a tree with no tests/ and failed
# whatever the task did, and `finish --outcome partial` + `start` kept the
# same policy (381): a false owed with no way out. The loosenings the task
# makes itself stay not in force, wherever it makes them: committed here,
# pushed, reset away and pulled back; or in a second clone under this
# repository's own address, pushed and pulled with the fetch's objects
# kept packed (so no loose object tells it was made on this machine).
source "$(dirname "$0")/../lib.sh" || exit 2

gate_policy() {
  mkdir -p .ai/repo
  {
    printf '[[exempt]]\nquestion = "backlog-not-grown"\nreason = "no forge here"\n\n'
    printf '[gates.unit]\nrun = "python3 -m unittest discover -s tests -q"\ninputs = ["**"]\n'
  } > .ai/repo/majordomus.toml
}
sum_test() {
  mkdir -p tests
  printf 'import unittest\n\nclass Sum(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(sum([1, 2]), %s)\n' "$1" > tests/test_sum.py
}

# 1. The colleague's change, pulled: the gate as the trunk declares it judges.
gate_policy
sum_test 3
mkdir -p src && echo 'def f(): return 1' > src/f.py
commit_all "initial"
with_origin
expect_run 0 md start "fix f"
colleague "tests moved to checks" \
  "git mv tests checks && sed -i 's/-s tests/-s checks/' .ai/repo/majordomus.toml"
git pull -q --rebase
echo 'def f(): return 2' > src/f.py
printf 'import unittest\n\nclass F(unittest.TestCase):\n    def test_f(self):\n        self.assertTrue(True)\n' > checks/test_f.py
commit_all "fix f"
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green pass "."
json_get "$case_root/doc.json" "d['policy']['start']" | grep -q "arrived from a remote" ||
  fail "the policy in force does not say the start's moved on with what arrived"
# A continued task keeps it: the start's, moved on by the same commits.
expect_run 0 md finish --outcome partial
expect_run 0 md start "fix f, again"
expect_run 0 md gate run unit
expect_answer gates-green pass "."

# 2. The task's own loosening, committed here, pushed, reset away and
# pulled back: made here, so not in force.
fresh() {
  cd "$case_root" && git init -q -b main "$1" && cd "$1"
  gate_policy
  sum_test 4
  commit_all "initial, sum is wrong"
  git init -q --bare -b main "$case_root/$1.git"
  git remote add origin "$case_root/$1.git"
  git push -q -u origin main
  git remote set-head origin main
  expect_run 0 md start "fix sum"
}
fresh reset
sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml
commit_all "the gate passes here"
git push -q origin main
git reset -q --hard HEAD~1
git pull -q
grep -q 'run = "true"' .ai/repo/majordomus.toml || fail "setup: the loosening was not pulled back"
expect_run 10 md gate run unit
expect_open gates-green "unit"
json_get "$case_root/doc.json" "[c['entry'] for c in d['policy']['changes'] if not c['in_force']]" |
  grep -q "gates.unit. run" || fail "the command pulled back is not named a loosening not in force"

# 3. The same loosening made in a second clone on this machine, under this
# repository's own address, pushed and pulled with the objects packed.
fresh second
git clone -q "$case_root/second.git" "$case_root/mine"
(cd "$case_root/mine" && sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml &&
  git commit -qam "the gate passes here" && git push -q origin main)
git config fetch.unpackLimit 1
git pull -q
grep -q 'run = "true"' .ai/repo/majordomus.toml || fail "setup: the loosening was not pulled"
expect_run 10 md gate run unit
expect_open gates-green "unit"
json_get "$case_root/doc.json" "[c['entry'] for c in d['policy']['changes'] if not c['in_force']]" |
  grep -q "gates.unit. run" || fail "the command made in a second clone is not named a loosening not in force"
