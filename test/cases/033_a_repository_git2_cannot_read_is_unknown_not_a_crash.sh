# A repository whose refs this git library cannot read (the reftable
# format: extensions.refStorage = reftable) is measured as what it is: every
# question unknown, saying why, and check exits 10 rather than failing.
source "$(dirname "$0")/../lib.sh" || exit 2

if ! git init -q --ref-format=reftable "$case_root/reftable" 2>/dev/null; then
  echo "this git cannot make a reftable repository; nothing to measure" >&2
  exit 0
fi
cd "$case_root/reftable"
echo "hello" > README
commit_all "initial"

# start cannot take a snapshot it cannot read: a clear refusal, no record.
expect_run 2 md start "a task"
expect_contains "reftable"
[ ! -e .ai/local/state/task.json ] || fail "start wrote a record it could not fill"

# A record written elsewhere (say before the refs were migrated).
mkdir -p .ai/local/state
cat > .ai/local/state/task.json <<JSON
{"schema": "majordomus/task/v1", "id": "t-1", "task": "a task", "started_at": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
 "head": null, "branch": "main", "snapshot": {"branches": {}, "worktrees": {}}}
JSON
expect_run 10 md check
expect_contains "nothing-accumulated=unknown"
expect_contains "no-new-debt=unknown"
expect_contains "its refs are stored in the reftable format (extensions.refStorage = reftable)"
python3 - <<'PY'
import json
doc = json.load(open(".ai/local/state/gates.completion.json"))
assert not doc["complete"], doc
for q in doc["questions"]:
    # Nothing read, nothing passes; only what needs no reading is exempt
    # (the task declared no scope).
    assert q["status"] == "unknown" or (q["id"], q["status"]) == ("scoped", "exempt"), (q["id"], q["status"])
    assert q["evidence"], q["id"]
acc = [q for q in doc["questions"] if q["id"] == "nothing-accumulated"][0]
assert "reftable" in acc["evidence"], acc
PY
[ -z "$(git status --porcelain)" ] || fail "check left something git lists: $(git status --porcelain)"

# The stop hook blocks: a task is active and nothing of it is measured, so
# nothing is known to be done (as check's exit 10 says); the block limit
# ends the loop like any other.
payload='{"session_id":"s","cwd":"'"$PWD"'","hook_event_name":"Stop","stop_hook_active":false}'
for n in 1 2 3; do
  expect_run 0 bash -c "printf '%s' '$payload' | '$MAJORDOMUS' hook stop"
  expect_contains '"decision":"block"'
  expect_contains "a task is active here, but the repository cannot be read"
  expect_contains "block $n of 3"
done
expect_run 0 bash -c "printf '%s' '$payload' | '$MAJORDOMUS' hook stop"
expect_not_contains '"decision"'
expect_contains "after 3 blocks in a row"
