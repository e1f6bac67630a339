#!/usr/bin/env bash
# A gate's `inputs` widened since the start are in force at once (a gate
# selected by more changes is stricter), but they also hash its verdict
# over more files: a failure the task recorded over the start's inputs no
# longer matched the inputs now, and a gate no change selected passed with
# its failing test still on the tree. A gate whose inputs grew is
# selected: its verdict over the inputs now is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo tests src vendor docs
printf '[[exempt]]\nquestion = "backlog-not-grown"\nreason = "no forge"\n\n[gates.unit]\nrun = "python3 -m unittest discover -s tests -q"\ninputs = ["src/**", "tests/**"]\n' > .ai/repo/majordomus.toml
printf 'import unittest\n\nclass S(unittest.TestCase):\n    def test_s(self):\n        self.assertEqual(1, 2)\n' > tests/test_s.py
echo 'x' > src/a.py; echo 'v' > vendor/v.py; echo d > docs/a.md
commit_all initial
with_origin
expect_run 0 md start "the docs"
expect_run 10 md gate run unit
echo more >> docs/a.md
commit_all "the docs"
expect_open gates-green "unit" refused

sed -i 's|inputs = \["src/\*\*", "tests/\*\*"\]|inputs = ["src/**", "tests/**", "vendor/**"]|' .ai/repo/majordomus.toml
commit_all "vendor is the gate's too"
git push -q origin main
expect_open gates-green "unit" "refused owed"
grep -q "widened, so the gate is selected" .ai/local/state/gates.completion.json || fail "the widening is not named in the policy in force"

# Run over the inputs now, it still fails: refused, not owed.
expect_run 10 md gate run unit
expect_open gates-green "unit" refused
