# Dirty, untracked and stashed work from before the start is named in the
# evidence and never counted against the task; touching it makes it the task's.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "one" > README
echo "keep" > notes.txt
commit_all "initial"

echo "stashed before" >> README
git stash push -q -m "before the task"
echo "someone else's edit" >> notes.txt
echo "scratch" > scratch.log

expect_run 0 md start "unrelated work"
expect_contains "inherited: 1 dirty, 1 untracked, 1 stashed"

echo "fn main() {}" > main.rs
echo "#[test] fn t() {}" > main_test.rs
git add main.rs main_test.rs
git commit -q -m "work"

expect_run 10 md check --json
python3 - "$out" <<'PY'
import json, sys
doc = json.loads(sys.argv[1])
q = {x["id"]: x for x in doc["questions"]}
for id in ["committed", "no-untracked", "no-stash"]:
    assert q[id]["status"] == "pass", (id, q[id])
assert "notes.txt" in q["committed"]["evidence"], q["committed"]["evidence"]
assert "scratch.log" in q["no-untracked"]["evidence"], q["no-untracked"]["evidence"]
assert "stash@{0}" in q["no-stash"]["evidence"], q["no-stash"]["evidence"]
PY

# Touching the inherited file makes it the task's.
echo "and mine" >> notes.txt
expect_run 10 md check
expect_contains "committed=owed"
expect_contains "notes.txt"
