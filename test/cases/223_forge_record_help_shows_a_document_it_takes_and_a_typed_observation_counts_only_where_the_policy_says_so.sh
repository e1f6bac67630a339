# `majordomus forge record --help` shows a minimal valid document, and
# `forge record` takes it. A typed observation is the worker's word: it
# answers backlog-not-grown only where the policy at the start declares
# observations recorded ([forge] provider = "recorded"); elsewhere it is
# named and unknown.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
mkdir -p tests && echo 'true' > tests/t.sh
commit_all "initial"

expect_run 0 md forge record --help
expect_contains '"schema": "majordomus/forge/v1"'
# The document the help shows, with the time now (the help's is an example).
help=$out
python3 - "$case_root/typed.json" "$help" <<'PY'
import datetime, json, re, sys
text = sys.argv[2]
start = text.index('{"schema"')
depth, end = 0, start
for i, c in enumerate(text[start:], start):
    depth += c == '{'
    depth -= c == '}'
    if depth == 0:
        end = i + 1
        break
doc = json.loads(text[start:end])
doc["observed_at"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
json.dump(doc, open(sys.argv[1], "w"))
PY

# Without the declaration: taken, said to count for nothing, and unknown in check.
expect_run 0 md start "typed, not declared"
echo more >> README && echo 'true' >> tests/t.sh
commit_all "work"
expect_run 0 md forge record "$case_root/typed.json"
expect_contains "it was typed in, not observed"
expect_run 10 md check
expect_contains "backlog-not-grown=unknown"
expect_contains "typed in (majordomus forge record $case_root/typed.json), not observed"
expect_run 0 md finish --outcome failed

# Declared: a typed observation is the forge's word for a task started
# so. Not for the task left open above: a start here continues it, under
# the policy it started under (test/cases/381), so the declaration counts
# for nothing there...
mkdir -p .ai/repo
printf '[forge]\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
commit_all "observations of this forge are typed in"
expect_run 0 md start "typed, declared since"
expect_contains 'continues "typed, not declared"'
expect_run 0 md forge record "$case_root/typed.json"
expect_contains "it was typed in, not observed"
expect_run 10 md check
expect_contains "backlog-not-grown=unknown"

# ...but for a task of its own, started under it (in a worktree of its own).
git worktree add -q "$case_root/declared"
cd "$case_root/declared"
expect_run 0 md start "typed, declared"
echo again >> README && echo 'true' >> tests/t.sh
commit_all "more work"
python3 - "$case_root/typed.json" <<'PY'
import datetime, json, sys
doc = json.load(open(sys.argv[1]))
doc["observed_at"] = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
json.dump(doc, open(sys.argv[1], "w"))
PY
expect_run 0 md forge record - < "$case_root/typed.json"
expect_not_contains "typed in, not observed"
[ "$(status_of backlog-not-grown)" = pass ] || fail "a typed observation did not count where the policy declares it"
json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == 'backlog-not-grown'][0]['evidence']" | grep -q "typed in with majordomus forge record" ||
  fail "the evidence does not say the observation was typed in"
