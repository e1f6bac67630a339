#!/usr/bin/env bash
# README, "Gates and the policy": a failure over exactly the inputs as they
# are now is a fact about the tree the task hands over. The gate `unit`
# reads config/flag, which its inputs (src/**) leave out; the task turns the
# flag off, commits and pushes, and `gate run unit` fails. No change selects
# the gate, so `gates-green` passed ("no required gate is selected") beside
# the failure just recorded. The same with a peer's broken edit to
# src/lib.rs left uncommitted in the working tree (inherited) while the task
# works elsewhere. Now `refused`, naming the gate, until a run over those
# inputs passes; `gate run --all` runs it too.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests config
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[gates.unit]
run = "grep -q on config/flag && grep -q fixed src/lib.rs"
inputs = ["src/**"]
TOML
echo "fn a() { fixed }" > src/lib.rs
echo on > config/flag
commit_all "initial"
with_origin

expect_run 0 md start "turn the flag off"
echo off > config/flag
echo "#[test] fn t(){}" > tests/a.rs
commit_all "off"
git push -q origin main
# Before any run: nothing selects it, nothing known of it.
expect_answer gates-green "pass" "No required gate is selected"
expect_run 10 md gate run unit
expect_run 10 md check
expect_open gates-green "unit failed over its inputs as they are now .*selected by no change since the start" "refused"
# Put right, `gate run --all` runs it, and its pass stands.
echo on > config/flag
commit_all "on again"
git push -q origin main
expect_run 0 md gate run --all
expect_contains "unit is selected by no change since the start, but it failed"
expect_answer gates-green "pass" "No required gate is selected"
expect_run 0 md finish --outcome completed

# A peer's broken edit, uncommitted at the start and left so: inherited, but
# the gate the task ran fails over the tree as it is.
echo "fn a() { broken }" > src/lib.rs
expect_run 0 md start "docs"
echo "more" > tests/b.rs
git add tests/b.rs && git commit -q -m "docs"
git push -q origin main
expect_answer gates-green "pass" "No required gate is selected"
expect_run 10 md gate run unit
expect_run 10 md check
expect_open gates-green "unit failed over its inputs as they are now" "refused"
# The peer's edit put back: its inputs are the start commit's, the failure stands no more.
git checkout -q -- src/lib.rs
expect_answer gates-green "pass" "No required gate is selected"
