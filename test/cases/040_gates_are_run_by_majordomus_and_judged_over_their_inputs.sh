# Gates are run by majordomus itself and judged over their inputs: a gate the
# change selects that never reported is owed, a failed run refuses, a pass
# over the inputs as they are now passes, an edit to an input makes the
# verdict stale (and reverting it makes it current again), and finish
# --outcome completed waits for all of it.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src docs .ai/repo
echo 'fn parse() {}' > src/lib.rs
echo '# guide' > docs/guide.md
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "echo unit-gate-output; grep -q fixed src/lib.rs"
inputs = ["src/**"]

[gates.docs]
run = "test -f docs/guide.md"
inputs = ["docs/**"]
TOML
commit_all "initial"

# gates_green: the status of gates-green in the document the last check wrote.
gates_green() { json_get .ai/local/state/gates.completion.json '[q for q in d["questions"] if q["id"] == "gates-green"][0]["status"]'; }
gates_evidence() { json_get .ai/local/state/gates.completion.json '[q for q in d["questions"] if q["id"] == "gates-green"][0]["evidence"]'; }

expect_run 0 md start "fix the parser"

# Nothing changed: both gates declared, none selected, and the evidence says why.
expect_run 10 md check
[ "$(gates_green)" = pass ] || fail "gates-green with nothing changed: $(gates_green)"
case "$(gates_evidence)" in *"No required gate is selected among the 2 declared gates: nothing changed"*) ;; *) fail "evidence: $(gates_evidence)" ;; esac

# A change to an input selects the gate; it never reported, so it is owed.
echo 'fn parse() { todo!() }' > src/lib.rs
expect_run 10 md check
expect_contains "gates-green=owed"
expect_contains "unit never reported, and never reported is not green"
expect_contains "remedy: majordomus gate run unit"
expect_not_contains "docs never reported"

# The list says which gate the change selects and why.
expect_run 0 md gate list
expect_contains "unit (required): echo unit-gate-output; grep -q fixed src/lib.rs"
expect_contains "selected: src/lib.rs changed (inputs: src/**)"
expect_contains "not selected: the one path changed since the start matches none of docs/**"

# A verdict is a run majordomus made: there is no way to type one in.
expect_run 2 md gate run unit --exit 0
expect_run 2 md gate run no-such-gate
expect_contains 'no gate named "no-such-gate" is declared'
[ ! -e .ai/local/state/ledger.jsonl ] || fail "a refused gate run wrote to the ledger"

# majordomus runs the failing gate itself: exit 10, its output streamed, the verdict refuses.
expect_run 10 md gate run unit
expect_contains "unit-gate-output"
expect_contains "gate unit failed"
expect_run 10 md check
expect_contains "gates-green=refused"
expect_contains "unit failed over its inputs as they are now (exit 1"
python3 - <<'PY'
import json
lines = [json.loads(l) for l in open(".ai/local/state/ledger.jsonl")]
task = json.load(open(".ai/local/state/task.json"))["id"]
run = lines[-1]
assert run["kind"] == "gate_run" and run["gate"] == "unit" and run["exit"] == 1, run
assert run["task"] == task, (run["task"], task)
assert len(run["inputs_hash"]) == 40 and run["commit"] and run["at"], run
PY

# The fix changes the inputs: the failed verdict no longer covers them.
echo 'fn parse() { /* fixed */ }' > src/lib.rs
expect_run 10 md check
expect_contains "gates-green=owed"
expect_contains "unit is stale"

# Re-run: it passes over the inputs as they are now.
expect_run 0 md gate run unit
expect_contains "gate unit passed"
expect_run 10 md check
expect_not_contains "gates-green="
[ "$(gates_green)" = pass ] || fail "gates-green after a passing run: $(gates_green)"
case "$(gates_evidence)" in "1 gate selected: 1 passing; unit passed over its inputs as they are now"*) ;; *) fail "evidence: $(gates_evidence)" ;; esac

# Committing changes no content: the verdict still holds.
commit_all "fix the parser"
expect_run 10 md check
[ "$(gates_green)" = pass ] || fail "gates-green after committing: $(gates_green)"

# An edit to an input makes the verdict stale, naming both hashes.
echo '// a comment, still fixed' >> src/lib.rs
expect_run 10 md check
expect_contains "gates-green=owed"
expect_contains "unit is stale: its inputs hashed"
# finish --outcome completed is refused while gates-green is open, and writes nothing.
expect_run 10 md finish --outcome completed
expect_contains "gates-green=owed"
[ -f .ai/local/state/task.json ] || fail "a refused finish removed the task record"

# An edit elsewhere does not touch the verdict; reverting the input makes it current again.
git checkout -q -- src/lib.rs
echo 'notes' > NOTES.txt
expect_run 10 md check
[ "$(gates_green)" = pass ] || fail "gates-green after reverting the input: $(gates_green)"
rm NOTES.txt

# A change to the docs selects the second gate too; --all runs what the change selects.
echo '# guide, edited' > docs/guide.md
expect_run 10 md check
expect_contains "gates-green=owed"
expect_contains "docs never reported"
expect_run 0 md gate run --all
expect_contains "gate unit passed"
expect_contains "gate docs passed"
expect_contains "2 gates run: unit passed, docs passed"
commit_all "edit the guide"
expect_run 10 md check
[ "$(gates_green)" = pass ] || fail "gates-green after --all: $(gates_green)"
case "$(gates_evidence)" in "2 gates selected: 2 passing;"*) ;; *) fail "evidence: $(gates_evidence)" ;; esac

# With gates green, finish --outcome completed is refused only for the other questions.
expect_run 10 md finish --outcome completed
expect_not_contains "gates-green="
