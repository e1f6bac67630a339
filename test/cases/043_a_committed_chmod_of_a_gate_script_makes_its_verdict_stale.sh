# A gate's verdict covers its inputs' modes as well as their content: a
# committed `chmod -x` of the gate's own script (same bytes, and the gate
# now fails) makes a passing verdict stale, and restoring the bit makes it
# current again.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src .ai/repo
echo 'fn a() {}' > src/lib.rs
printf '#!/bin/sh\nexit 0\n' > check.sh
chmod +x check.sh
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "./check.sh"
inputs = ["check.sh", "src/**"]
TOML
commit_all "initial"

# gates_green: the status of gates-green in the document the last check wrote.
gates_green() { json_get .ai/local/state/gates.completion.json '[q for q in d["questions"] if q["id"] == "gates-green"][0]["status"]'; }

expect_run 0 md start "tighten the check"
echo 'fn a() { /* edited */ }' > src/lib.rs
commit_all "edit"
expect_run 0 md gate run unit
expect_run 10 md check
[ "$(gates_green)" = pass ] || fail "gates-green: $(gates_green)"

chmod -x check.sh
commit_all "chmod -x check.sh"
[ "$(git ls-files -s check.sh | cut -c1-6)" = 100644 ] || fail "the mode was not committed"
expect_run 10 md check
expect_contains "unit is stale"
[ "$(gates_green)" != pass ] || fail "a verdict over the executable script still passes"
# Run again, the gate now fails (its script is no longer executable).
expect_run 10 md gate run unit
expect_run 10 md check
expect_contains "gates-green=refused"

chmod +x check.sh
commit_all "chmod +x check.sh"
expect_run 0 md gate run unit
expect_run 10 md check
[ "$(gates_green)" = pass ] || fail "gates-green: $(gates_green)"
