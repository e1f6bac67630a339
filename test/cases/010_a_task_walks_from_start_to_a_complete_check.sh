# A task walks from `start` through each owed state of the commit stage to
# a complete done line, and only then may it finish as completed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
# No forge program reaches this repository: its observations are typed in.
mkdir -p .ai/repo && printf '[forge]\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
commit_all "initial"

expect_run 0 md start "add a greeting" --scope src --scope tests
expect_contains 'started "add a greeting"'
grep -qx '/.ai/local/' .git/info/exclude || fail "start did not exclude .ai/local/"
[ -z "$(git status --porcelain)" ] || fail "the tool's own state shows in git status"

# A second start while the task is active changes nothing.
before=$(cat .ai/local/state/task.json)
expect_run 15 md start "another"
[ "$before" = "$(cat .ai/local/state/task.json)" ] || fail "the second start changed the record"

# Nothing done yet: nothing measurable.
expect_run 10 md check
expect_contains "owed     measurable"

# An untracked file appears.
mkdir -p src tests
echo 'fn greet() {}' > src/greet.rs
expect_run 10 md check
expect_contains "no-untracked=owed"
expect_contains "src/greet.rs"

# Staged but not committed.
git add src/greet.rs
expect_run 10 md check
expect_contains "committed=owed"
expect_not_contains "no-untracked=owed"

# Committed, without a test.
commit_all "greet"
expect_run 10 md check
expect_contains "regression-tested=owed"
expect_not_contains "committed=owed"
expect_not_contains "measurable="

# A stash made during the task.
echo 'wip' >> src/greet.rs
git stash push -q -m "wip"
expect_run 10 md check
expect_contains "no-stash=owed"
expect_contains "stash@{0}"
git stash drop -q

# A test, committed: every question the git readings answer is settled.
echo '#[test] fn t() {}' > tests/greet.rs
commit_all "test greet"
expect_run 10 md check --json
python3 - "$out" <<'PY'
import json, sys
doc = json.loads(sys.argv[1])
assert doc["schema"] == "majordomus/gates.completion/v1", doc["schema"]
status = {q["id"]: q["status"] for q in doc["questions"]}
for q in ["scoped", "regression-tested", "committed", "no-untracked", "no-stash", "settled", "integrated", "upstream-alive", "measurable"]:
    assert status[q] == "pass", (q, status[q])
assert status["pushed"] == "exempt", status["pushed"]
for q in doc["questions"]:
    assert q["source"] and q["evidence"] and q["remedy"], q["id"]
    assert q["status"] != "pass" or "No reading exists" not in q["evidence"], q["id"]
PY
[ -f .ai/local/state/gates.completion.json ] || fail "check wrote no gates.completion"
# What --json prints is the document kept, byte for byte.
md check --json > "$case_root/printed.json" || true
cmp -s "$case_root/printed.json" .ai/local/state/gates.completion.json ||
  fail "check --json printed another document than the one it kept"

# finish --outcome completed is refused while anything is open, and writes nothing.
expect_run 10 md finish --outcome completed
expect_contains "refused"
expect_done_line "majordomus: finish --outcome completed refused: the done invariant is not complete (nothing was written)"
expect_contains "done: backlog-not-grown=unknown"
[ -f .ai/local/state/task.json ] || fail "a refused finish removed the record"
[ ! -d .git/majordomus/archive ] || fail "a refused finish archived the record"

# The forge observed after the start, with no pull request open: complete.
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
printf '{"schema":"majordomus/forge/v1","observed_at":"%s","repository":"o/r","pull_requests":[],"issues":[]}' "$now" > "$case_root/forge.json"
expect_run 0 md forge record "$case_root/forge.json"
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
expect_run 0 md score
expect_contains "10/10"

expect_run 0 md finish --outcome completed
ls .git/majordomus/archive/*.json >/dev/null || fail "finish archived nothing"
[ ! -f .ai/local/state/task.json ] || fail "finish left the record active"
grep -q '"outcome": "completed"' .git/majordomus/archive/*.json || fail "the archive does not say completed"

# With the task finished, nothing says where work started again.
expect_run 10 md check
expect_contains "No task record says where this work started."
