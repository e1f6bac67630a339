#!/usr/bin/env bash
# README, "The policy in force": a change of a gate's `run` is a loosening
# (`run = "true"` must not judge the task that wrote it), so a task whose
# gate command was itself wrong at the start cannot fix it for itself.
# Found on cJSON: the policy's gate linked a file twice; the task fixed the
# `run` line with the code, and gates-green refused with "fix what the gate
# unit reports, then majordomus gate run unit", which cannot work: the
# failing command is the start's. The answer now says which command failed
# and gives the ways out; the loosening stays out of force. The way out,
# a fix of the command committed by someone else and pulled into a task
# that never changed the file, passes.
source "$(dirname "$0")/../lib.sh" || exit 2

# broken_gate: a policy whose gate runs a script that does not exist, with
# the real test beside it, committed.
broken_gate() {
  mkdir -p .ai/repo src tests
  echo 'v1' > src/lib.txt
  printf 'grep -q v2 src/lib.txt\n' > tests/run.sh
  printf '[gates.unit]\nrun = "sh tests/run-all.sh"\ninputs = ["**"]\n[forge]\nprovider = "none"\n' > .ai/repo/majordomus.toml
  commit_all "policy"
}

# The way out: the task leaves the policy file alone, a colleague fixes the
# command and pushes, the task pulls.
broken_gate
with_origin
expect_run 0 md start "fix lib"
echo 'v2' > src/lib.txt
echo 'grep -q v2 src/lib.txt # the regression' >> tests/run.sh
commit_all "fix lib"
expect_run 10 md gate run unit
colleague "fix the gate's command" "sed -i 's|tests/run-all.sh|tests/run.sh|' .ai/repo/majordomus.toml"
git pull -q --rebase
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green pass "unit passed"

# The task changes the command itself: not in force, and said so.
cd "$case_root"
git init -q -b main own && cd own
broken_gate
git init -q --bare -b main "$case_root/own.git"
git remote add origin "$case_root/own.git"
git push -q -u origin main
expect_run 0 md start "fix lib"
sed -i 's|tests/run-all.sh|tests/run.sh|' .ai/repo/majordomus.toml
echo 'v2' > src/lib.txt
commit_all "fix lib, and the gate's path"
git push -q origin main
expect_run 10 md gate run unit
expect_open gates-green "unit's command in \.ai/repo/majordomus\.toml changed from .sh tests/run-all\.sh. to .sh tests/run\.sh.*the start's command is the one that failed" refused
case $(remedy_of gates-green) in
  *"runs to its end"*"someone else's that arrives from the remote"*"no commit this task made changes the file"*"finish --outcome blocked"*"majordomus gate run unit") ;;
  *) fail "the remedy does not give the ways out: $(remedy_of gates-green)" ;;
esac
# Still the start's command: the loosening is not in force.
expect_run 10 md gate run unit
