# README, "The policy in force": a gate the task weakens by changing its `run` (here to
# `true`) is judged as the start's policy defines it: `gate run` runs the
# start's command, and gates-green does not pass over a failing gate.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_unit_gate
echo 'fn a() { broken }' > src/lib.rs
echo 'fn t() {}' > tests/a.rs
commit_all "work"
expect_run 10 md gate run unit

sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml
# gate run runs the gate as the policy in force (the start's) defines it.
expect_run 10 md gate run unit
expect_open gates-green "unit" "owed refused"
expect_run 10 md check
commit_all "a gate that always passes"
expect_run 10 md gate run unit
expect_open gates-green "unit" "owed refused"
