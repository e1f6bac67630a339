#!/usr/bin/env bash
# README, "The policy in force": a policy change only commits that arrived
# from a remote made is the start's policy moved on (test/cases/464), and
# one made under this repository's own address, in any clone, is the
# task's (483). The address read was the author's alone, and `git commit
# --author` names any author: the task loosens the gate in a second clone
# (`run = "true"`) committed with `--author "Colleague <...>"` (or `git am`
# of a patch it wrote with a colleague's `From:` line), pushes and pulls.
# The commit's committer is this repository's own address. The loosening
# was read as the colleague's and put in force: the gate ran `true`,
# `done: complete` while the start's test still failed.
source "$(dirname "$0")/../lib.sh" || exit 2

fresh() {
  mkdir -p "$case_root/$1" && cd "$case_root/$1" && git init -q -b main
  mkdir -p .ai/repo tests src
  printf '[[exempt]]\nquestion = "backlog-not-grown"\nreason = "no forge here"\n\n[gates.unit]\nrun = "python3 -m unittest discover -s tests -q"\ninputs = ["**"]\n' > .ai/repo/majordomus.toml
  printf 'import unittest\n\nclass Sum(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(sum([1, 2]), 4)\n' > tests/test_sum.py
  echo 'def f(): return 1' > src/f.py
  commit_all "initial, sum is wrong"
  git init -q --bare -b main "$case_root/$1.git"
  git remote add origin "$case_root/$1.git"
  git push -q -u origin main
  git remote set-head origin main
  expect_run 0 md start "fix f"
  git clone -q "$case_root/$1.git" "$case_root/$1-mine"
}
work() {
  echo 'def f(): return 2' > src/f.py
  printf 'import unittest\n\nclass F(unittest.TestCase):\n    def test_f(self):\n        self.assertTrue(True)\n' > tests/test_f.py
  commit_all "fix f"
  git push -q origin main
}
held_not_in_force() {
  expect_run 10 md gate run unit
  expect_open gates-green "unit"
  json_get "$case_root/doc.json" "[c['in_force'] for c in d['policy']['changes'] if c['entry'] == '[gates.unit] run']" |
    grep -qx '\[False\]' || fail "the loosening is not named as not in force"
  expect_run 10 md check
  expect_contains "[gates.unit] run: changed from"
}

# 1. `git commit --author` in a second clone, under the configured address.
fresh a
(cd "$case_root/a-mine" && sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml &&
  git commit -q -a --author "Colleague <c@example.com>" -m "ci: relax the gate" && git push -q origin main)
git pull -q --rebase
grep -q 'run = "true"' .ai/repo/majordomus.toml || fail "setup: the loosening was not pulled"
work
held_not_in_force

# 2. `git am` there of a patch written with a colleague's From: line.
fresh b
(cd "$case_root/b-mine" && sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml &&
  git diff > "$case_root/relax.diff" && git checkout -q -- . &&
  { printf 'From: Colleague <c@example.com>\nSubject: ci: relax the gate\n\n---\n'; cat "$case_root/relax.diff"; } > "$case_root/relax.patch" &&
  git am -q "$case_root/relax.patch" && git push -q origin main)
[ "$(git -C "$case_root/b-mine" log -1 --format=%ae/%ce)" = "c@example.com/case@example.com" ] ||
  fail "setup: the patch's commit is not the colleague's authored and this address's committed"
git pull -q --rebase
work
held_not_in_force

# The honest way: the colleague's own commit (theirs as author and as
# committer) is the trunk's, the start's policy moved on (464).
fresh c
(cd "$case_root/c-mine" && sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml &&
  GIT_COMMITTER_NAME=Colleague GIT_COMMITTER_EMAIL=c@example.com \
    git commit -q -a --author "Colleague <c@example.com>" -m "ci: relax the gate" && git push -q origin main)
git pull -q --rebase
work
expect_run 0 md gate run unit
expect_answer gates-green pass "."
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
