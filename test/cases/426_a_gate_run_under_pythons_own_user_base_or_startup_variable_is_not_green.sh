#!/usr/bin/env bash
# Every variable Python's interpreter reads is part of what a gate ran
# under, not only PYTHONPATH and PYTHONHOME (case 420) or HOME (case 421):
# `PYTHONUSERBASE=elsewhere majordomus gate run unit`, with a user site
# there whose `usercustomize` ends the interpreter at its start
# (`os._exit(0)`, before `unittest` runs a test), records a pass that is
# named and not green; as at the start, the gate fails.
source "$(dirname "$0")/../lib.sh" || exit 2

start_broken_sum

base="$case_root/userbase"
site=$(PYTHONUSERBASE="$base" python3 -c 'import site; print(site.getusersitepackages())')
mkdir -p "$site"
echo "import os; os._exit(0)" > "$site/usercustomize.py"
PYTHONUSERBASE="$base" expect_run 0 md gate run unit
expect_open gates-green "unit|PYTHONUSERBASE|differs from the start" "owed"
expect_run 10 md check

expect_run 10 md gate run unit
expect_status gates-green refused
