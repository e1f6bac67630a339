#!/usr/bin/env bash
# git's own pointers to its settings choose what every git a gate runs
# does, as HOME does for every program (test/cases/421): a whitespace gate
# `git diff --check` fails over the task's trailing spaces, and run again as
# `GIT_CONFIG_GLOBAL=lenient majordomus gate run lint`, where that file says
# `core.whitespace = -trailing-space`, it passes. The rule: GIT_CONFIG_GLOBAL,
# GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM, GIT_ATTR_SOURCE and
# GIT_ATTR_NOSYSTEM are recorded with the gate environment (a pass under
# other values than the start's is owed, naming the variable, and does not
# replace the failure); the rest of git's settings variables
# (GIT_CONFIG_COUNT and its pairs, GIT_CONFIG_PARAMETERS) never reach a gate,
# whose command runs without them.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.lint]
run = "git diff --check 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD"
inputs = ["**"]
TOML
exempt_forge
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"
printf 'fn a() { fixed }   \n' > src/lib.rs
echo "#[test] fn t() {}" > tests/a.rs
commit_all "fix"
git push -q origin main
expect_run 10 md gate run lint

# Another user configuration file: the pass is not the gate's.
printf '[core]\n\twhitespace = -trailing-space\n' > "$case_root/lenient"
expect_run 0 env GIT_CONFIG_GLOBAL="$case_root/lenient" "$MAJORDOMUS" gate run lint
expect_open gates-green "lint .*GIT_CONFIG_GLOBAL" "owed"
# The system's file, where the start read none, likewise.
expect_run 0 env GIT_CONFIG_NOSYSTEM=0 GIT_CONFIG_SYSTEM="$case_root/lenient" "$MAJORDOMUS" gate run lint
expect_open gates-green "lint .*GIT_CONFIG_(NOSYSTEM|SYSTEM)" "owed"

# Settings given through GIT_CONFIG_COUNT do not reach the gate: it fails
# as at the start, and the failure counts.
expect_run 10 env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.whitespace GIT_CONFIG_VALUE_0=-trailing-space \
  "$MAJORDOMUS" gate run lint
expect_open gates-green "lint failed" "refused"

# The honest flow: the spaces taken out, the gate run as at the start.
printf 'fn a() { fixed }\n' > src/lib.rs
commit_all "no trailing spaces"
git push -q origin main
expect_run 0 md gate run lint
expect_answer gates-green pass "lint passed"
