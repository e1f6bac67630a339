# The done invariant as a whole: in every state a repository can be in,
# every question of the gates.completion document carries its status, the
# source that answered it, a sentence of the evidence it read (never just
# the status again), a remedy, and its details as data; and the text of
# check is that document rendered, ending in its done line.
source "$(dirname "$0")/../lib.sh" || exit 2

verify() {
  local label=$1
  set +e
  out=$(md check --json 2>&1)
  local code=$?
  set -e
  [ "$code" -eq 10 ] || [ "$code" -eq 0 ] || fail "$label: check --json exited $code"
  python3 - "$label" "$code" "$out" <<'PY' || fail "$label: the document breaks the invariant"
import json, sys
label, code, doc = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
ids = ["scoped", "gates-green", "regression-tested", "committed", "no-untracked", "no-stash", "settled",
       "pushed", "integrated", "upstream-alive", "no-new-debt", "nothing-accumulated", "backlog-not-grown",
       "todos-done", "claims-released", "filings-closed", "markers-live", "no-background-work", "measurable"]
got = [q["id"] for q in doc["questions"]]
assert got[:len(ids)] == ids, (label, got)
statuses = {"pass", "owed", "refused", "unknown", "exempt"}
for q in doc["questions"]:
    where = f'{label}: {q["id"]}'
    assert q["status"] in statuses, (where, q["status"])
    for key in ("stage", "question", "source", "remedy", "evidence"):
        assert isinstance(q[key], str) and q[key].strip(), (where, key)
    ev = q["evidence"]
    assert ev.strip().lower().rstrip(".") not in statuses, (where, ev)
    assert len(ev) > 20 and not ev[0].islower() and ev.rstrip().endswith((".", ")")), (where, ev)
    assert isinstance(q["details"], dict), (where, q["details"])
tallies = {s: sum(q["status"] == s for q in doc["questions"]) for s in statuses}
assert doc["tallies"] == tallies, (label, doc["tallies"], tallies)
assert doc["complete"] == all(q["status"] in ("pass", "exempt") for q in doc["questions"]), label
assert (code == 0) == doc["complete"], (label, code)
PY
  local json_doc=$out
  expect_run "$code" md check
  python3 - "$label" "$json_doc" "$(printf '%s\n' "$out" | tail -n 1)" <<'PY' || fail "$label: the done line is not the document's"
import json, sys
label, doc, line = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
open_ = [f'{q["id"]}={q["status"]}' for q in doc["questions"] if q["status"] not in ("pass", "exempt")]
assert line == ("done: " + " ".join(open_) if open_ else line), (label, line, open_)
PY
}

echo "hello" > README
commit_all "initial"
verify "no task"

expect_run 0 md start "everything at once"
verify "a task just started"

# Work of every kind: debt, a branch, a worktree, a stash, an untracked
# file, an observation of the forge with a pull request opened since.
mkdir -p .ai/repo src
printf 'one\n' > .ai/repo/lint-baseline.txt
echo 'fn a() {}' > src/a.rs
commit_all "work"
echo 'two' >> .ai/repo/lint-baseline.txt
git branch side
git worktree add -q "$case_root/wt"
echo scratch > notes.txt
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
printf '{"schema":"majordomus/forge/v1","observed_at":"%s","repository":"o/r","pull_requests":[{"number":1,"created_at":"%s","state":"open"}]}' "$now" "$now" |
  md forge record - >/dev/null
verify "in the middle of the work"

# Readings that cannot be taken: a garbled observation, a garbled record.
echo '{ not json' > "$(git rev-parse --git-common-dir)/majordomus/forge.json"
verify "a garbled forge observation"
cp .ai/local/state/task.json "$case_root/task.json"
echo '{"schema": "majordomus/task/v1"' > .ai/local/state/task.json
verify "a garbled task record"
cp "$case_root/task.json" .ai/local/state/task.json
python3 - <<'PY'
import json
path = ".ai/local/state/task.json"
r = json.load(open(path))
r["started_at"] = "last Tuesday"
r["head"] = "0123456789abcdef0123456789abcdef01234567"
r["snapshot"] = {}
json.dump(r, open(path, "w"))
PY
verify "a record whose start is not in this repository"
