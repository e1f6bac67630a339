# README, "The policy in force": narrowing a gate's `inputs` so the change no longer selects it
# is a loosening: the start's inputs select the gate, and gates-green is
# owed until it passes over them.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_unit_gate
echo 'fn a() { broken }' > src/lib.rs
echo 'fn t() {}' > tests/a.rs
commit_all "work"
expect_open gates-green "unit never reported"

sed -i 's|^inputs = .*|inputs = ["nothing/**"]|' .ai/repo/majordomus.toml
expect_open gates-green "unit"
expect_run 10 md check
