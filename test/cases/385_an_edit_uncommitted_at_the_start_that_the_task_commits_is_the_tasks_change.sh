#!/usr/bin/env bash
# README, "A task, start to finish": inherited means the same content as at
# the start, uncommitted then and now. A peer's edit to src/lib.rs was
# uncommitted when the task started; the task's `git add -A` commits it and
# the push puts it on the trunk. It was read as inherited all the same (its
# content was what the start snapshot held), so no gate was selected
# (`gates-green` pass, "the one path changed since the start matches none of
# their inputs", while `gate run unit` failed on it) and, under `--scope
# tests`, `scoped` passed though the task's own commit changed src/lib.rs.
# What the task puts into history is the task's: the edit is in its change.
# One it leaves uncommitted stays inherited.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests docs
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[gates.unit]
run = "grep -q fixed src/lib.rs"
inputs = ["src/**"]
TOML
echo "fn a() { fixed }" > src/lib.rs
echo "notes" > docs/notes.md
commit_all "passing"
with_origin

# Someone's uncommitted edit, and an untracked file, there at the start.
echo "fn a() { broken }" > src/lib.rs
echo "loose" > notes.txt
expect_run 0 md start "tidy up" --scope tests

# Left alone, it stays inherited: the task's test commit selects nothing.
echo "#[test] fn t(){}" > tests/a.rs
git add tests/a.rs && git commit -q -m "a test"
git push -q origin main
expect_answer scoped "pass" "1 path changed since the start"
judge_answer gates-green "pass" "No required gate is selected"
judge_answer committed "pass" "src/lib.rs"
judge_answer no-untracked "pass" "notes.txt"

# Committed with the task's work and pushed: the task's change now.
echo "#[test] fn u(){}" > tests/b.rs
commit_all "tidy up"
git push -q origin main
expect_run 10 md gate run unit
expect_run 10 md check
expect_open scoped "2 paths changed since the start lie outside the scope tests: notes.txt, src/lib.rs" "refused"
expect_also gates-green "unit failed over its inputs" "refused"
