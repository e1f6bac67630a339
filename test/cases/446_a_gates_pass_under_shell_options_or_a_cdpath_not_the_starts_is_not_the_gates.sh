#!/usr/bin/env bash
# What a shell reads before it runs a line chooses what a gate runs as
# surely as PATH does: `SHELLOPTS=noexec` makes bash read `check.sh`
# without running a line of it (exit 0), and `CDPATH` sends the gate's
# `cd web` to another `web`. A pass recorded under either, where the start
# had neither, is not the gate's verdict.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests web
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "bash check.sh"
inputs = ["**"]

[gates.web]
run = "cd web && sh check.sh"
inputs = ["**"]
TOML
echo "grep -q fixed src/lib.rs" > check.sh
echo "grep -q fixed ../src/lib.rs" > web/check.sh
echo "fn a() {}" > src/lib.rs
commit_all "initial"
start_and_break_fix_a
expect_run 10 md gate run web

env SHELLOPTS=noexec "$MAJORDOMUS" gate run unit > /dev/null 2>&1 || true
mkdir -p "$case_root/elsewhere/web"
echo "exit 0" > "$case_root/elsewhere/web/check.sh"
CDPATH="$case_root/elsewhere" md gate run web > /dev/null 2>&1 || true
expect_open gates-green "unit .*SHELLOPTS" "owed refused"
judge_answer gates-green "owed refused" "web .*CDPATH"

# A wrapper's `set -euo pipefail; export SHELLOPTS` only makes a run stop
# sooner: the same gate. The fix made, both gates run so: green.
echo "fn a() { fixed }" > src/lib.rs
commit_all "fixed"
stricter="braceexpand:errexit:hashall:interactive-comments:nounset:pipefail"
env SHELLOPTS="$stricter" "$MAJORDOMUS" gate run unit > /dev/null 2>&1
md gate run web > /dev/null 2>&1
expect_answer gates-green pass "2 passing"
