#!/usr/bin/env bash
# Under core.fileMode=false (set before the start, as git itself sets it on
# a file system that keeps no executable bit, or as a user keeps it), git
# looks away from the executable bit: a check script the task writes,
# `chmod +x`es and commits is recorded 100644, and the gate, which runs
# `./ci/checks/*.sh`, passes over a mode the commit does not hold (a fresh
# clone fails: "Permission denied"). Where core.fileMode is false the
# inputs hash covers the disk's bit, and a tracked input whose bit on disk
# is not its recorded mode makes the pass not the committed files'
# (gates-green owed, naming it and why). Recorded with `git update-index
# --chmod=+x`, or with the bits agreeing from the start, it passes.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src ci/checks .ai/repo
echo 'x = 1' > src/app.py
cat > ci/run.sh <<'SH'
set -e
for check in ci/checks/*.sh; do
  [ -e "$check" ] || continue
  "./$check"
done
SH
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "sh ci/run.sh"
inputs = ["**"]
TOML
exempt_forge
commit_all "initial"
with_origin
git config core.fileMode false   # before the start: the checkout's own setting
md start "add a lint check" > /dev/null

# The bits agreeing: a change that touches no mode passes as it always did.
echo 'x = 1  # one' > src/app.py
commit_all "note"
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green pass "unit"

printf '#!/bin/sh\ngrep -q "x = 1" src/app.py\n' > ci/checks/lint.sh
chmod +x ci/checks/lint.sh
git add -A && git commit -qm "add a lint check"
git push -q origin main
[ "$(git ls-files -s ci/checks/lint.sh | cut -c1-6)" = 100644 ] || fail "setup: git did not record 100644"

expect_run 0 md gate run unit
expect_open gates-green "core.fileMode is false.*ci/checks/lint.sh \(executable on disk, 100644 in git\)" owed
remedy=$(remedy_of gates-green)
case $remedy in *"git update-index --chmod=+x ci/checks/lint.sh"*) ;; *) fail "remedy: $remedy" ;; esac

# Recorded as the gate ran it: committed, pushed, run again, green.
git update-index --chmod=+x ci/checks/lint.sh
git commit -qm "lint check: executable"
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green pass "unit"
