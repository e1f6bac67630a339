#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A colleague adds a gate `lint` on the trunk; the task pulls it, and it
# refuses the task's code. The task then runs `git revert` of the
# colleague's commit (or deletes the gate by hand) and pushes: the policy
# file is the start's again, and, the task's own commits having changed
# it, the start's policy stood alone: done: complete, the trunk's gate
# taken out by the task that it failed. What the colleague's version adds
# in strictness stays in force; the gate removed is named.

unit_gate_policy
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"
colleague "add a lint gate" \
  "printf '\n[gates.lint]\nrun = \"! grep -q TODO src/lib.rs\"\ninputs = [\"src/**\"]\n' >> .ai/repo/majordomus.toml"
git pull -q
echo "fn a() { fixed } // TODO" > src/lib.rs
echo "fn t() {}" > tests/t.rs
commit_all "the fix"
expect_run 10 md gate run --all
expect_open gates-green "lint failed" refused

# 1. The colleague's commit reverted and pushed.
git revert --no-edit HEAD~1 >/dev/null
git push -q origin main
expect_run 10 md gate run --all
expect_contains "lint failed"
expect_open gates-green "lint failed" refused
json_get "$case_root/doc.json" "[c['entry'] for c in d['policy']['changes'] if not c['in_force']]" |
  grep -q "gates.lint" || fail "the gate the task took out is not named a loosening not in force"
expect_run 10 md check
expect_done_line "done: gates-green=refused"

# 2. The revert undone, the gate deleted by hand instead.
git revert --no-edit HEAD >/dev/null
python3 - <<'PY'
p = ".ai/repo/majordomus.toml"
s = open(p).read()
open(p, "w").write(s[: s.index("\n[gates.lint]")] + "\n")
PY
commit_all "no lint"
git push -q origin main
expect_run 10 md gate run --all
expect_open gates-green "lint failed" refused

# The honest way: the code fixed, both gates pass.
echo "fn a() { fixed }" > src/lib.rs
commit_all "no TODO"
git push -q origin main
expect_run 0 md gate run --all
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
