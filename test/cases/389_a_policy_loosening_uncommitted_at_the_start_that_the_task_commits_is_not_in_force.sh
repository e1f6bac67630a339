#!/usr/bin/env bash
# README, "The policy in force": the policy in force is the start's, and a
# loosening made since is named and not in force. A peer's edit to the
# policy, uncommitted at the start, turned the gate's command into `true`;
# the start kept the file as it stood, edit and all, so when the task's
# `git add -A` committed it and pushed it to the trunk, the gate "passed"
# over a broken src/lib.rs and the check read `done: complete`. What the
# task puts into history is the task's: a policy file it committed since
# the start is compared with the start commit's, and the loosening is not in
# force. Left uncommitted, the edit stays the start's.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[gates.unit]
run = "grep -q fixed src/lib.rs"
inputs = ["src/**"]
TOML
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin

# A peer's loosening, uncommitted at the start.
sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml
expect_run 0 md start "fix a"
echo "fn a() { broken }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
git add src tests && git commit -q -m "fix a"
git push -q origin main
# Left uncommitted, the edit is the start's policy: its gate is `true`.
expect_run 0 md gate run unit

# Committed with the task's work and pushed: the task's change, and a loosening.
commit_all "tidy"
git push -q origin main
expect_run 10 md gate run unit
expect_run 10 md check
expect_open gates-green "unit failed over its inputs" "refused"
md check --json > "$case_root/doc.json" || true
json_get "$case_root/doc.json" "d['policy']" | grep -q "uncommitted at the start that the task has committed since" \
  || { out=$(cat "$case_root/doc.json"); fail "the policy finding does not say where the start's policy came from"; }
