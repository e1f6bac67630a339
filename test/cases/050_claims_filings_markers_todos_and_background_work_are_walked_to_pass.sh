# A task claims and files issues, adds a limitation marker, declares a todo
# and registers background work; a recorded forge observation settles its
# issues, an acknowledgement exempts a peer's file, and every bookkeeping
# question walks from owed, unknown or refused to pass. The score carries
# none of them as a cap by the end, and its cached read knows when it is stale.
source "$(dirname "$0")/../lib.sh" || exit 2

# The marker word, spelled so this file never holds a marker itself.
L="LIMIT""ATION"

# observe JSON_ISSUES: records a forge observation made now (typed in, as
# this repository's policy declares its observations are).
observe() {
  cat > "$case_root/forge.json" <<JSON
{"schema": "majordomus/forge/v1", "observed_at": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
 "repository": "case/repo", "pull_requests": [], "issues": $1}
JSON
  md forge record "$case_root/forge.json" > /dev/null
}

mkdir -p src tests .ai/repo
echo 'pub fn parse() {}' > src/lib.rs
printf '[forge]\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
commit_all "initial"

# No task: the bookkeeping commands refuse, and change nothing.
expect_run 2 md todo add "anything"
expect_contains "no task is active"
[ ! -e .ai/local/state/ledger.jsonl ] || fail "a refused todo wrote the ledger"

expect_run 0 md start "parse the header"

# Nothing done and nothing declared: nothing measurable.
expect_run 10 md check
expect_contains "measurable=owed"

# A declared todo makes the task measurable, and is owed until done.
expect_run 0 md todo add parse the header
expect_contains "todo 1 added"
expect_run 10 md check
expect_not_contains "measurable="
expect_contains "todos-done=owed"
expect_contains '1 "parse the header"'
expect_run 2 md todo done 7

# Claims, a filing, and a marker naming the filed issue.
expect_run 0 md issue claim 1
expect_run 0 md issue claim other/repo#3
expect_run 0 md issue file 2
expect_run 2 md issue claim "not-an-issue"
expect_run 2 md issue release 9
echo "// $L(#2): the header's extension fields are not parsed" >> src/lib.rs
echo '#[test] fn parses() {}' > tests/parse.rs
commit_all "parse the header"

# The forge was never observed: none of them can be settled.
expect_status claims-released unknown
expect_status filings-closed unknown
expect_status markers-live unknown
expect_run 10 md check
expect_contains "never observed"

# Observed: #1 open, other/repo#3 closed (this repository's #3 is open, and
# says nothing of it), #2 open without the limitation label.
observe '[{"repository": "case/repo", "number": 1, "state": "open", "labels": []},
          {"repository": "case/repo", "number": 3, "state": "open", "labels": []},
          {"repository": "other/repo", "number": 3, "state": "closed", "labels": []},
          {"repository": "case/repo", "number": 2, "state": "open", "labels": []}]'
expect_run 10 md check
expect_contains "claims-released=owed"
expect_contains "filings-closed=owed"
expect_contains "markers-live=refused"
expect_contains "#1 is still open"
expect_not_contains "other/repo#3 is"
expect_contains "src/lib.rs:2"
expect_contains "not labelled limitation"

# A marker with no issue number is refused, named with its file and line.
echo "// $L(some day)" >> src/lib.rs
expect_run 10 md check
expect_contains "src/lib.rs:3"
expect_contains "names no issue number"
git checkout -q src/lib.rs

# A marker in a test tree is outside the register and never read.
echo "// $L(#99)" >> tests/parse.rs
expect_run 10 md check
expect_not_contains "#99"
git checkout -q tests/parse.rs

# #1 released; #2 labelled limitation: with the marker, a registered limitation.
expect_run 0 md issue release 1
observe '[{"repository": "case/repo", "number": 2, "state": "open", "labels": ["limitation"]},
          {"repository": "other/repo", "number": 3, "state": "closed", "labels": []}]'
expect_status claims-released pass
expect_status filings-closed pass
expect_status markers-live pass
json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == 'filings-closed'][0]['evidence']" | grep -q "registered limitation" ||
  fail "the registered limitation is not stated"

# Background work: owed while it runs, settled once it ends.
sleep 300 &
sleeper=$!
expect_run 0 md bg add "$sleeper" --what "a long sleep"
expect_run 10 md check
expect_contains "no-background-work=owed"
expect_contains "pid $sleeper (a long sleep) still runs"
kill "$sleeper"
wait "$sleeper" 2>/dev/null || true
expect_status no-background-work pass

expect_run 0 md todo done 1
expect_status todos-done pass

# A peer's file: acknowledged with a reason, keyed to exactly that file.
echo "a peer's notes" > notes.txt
expect_status no-untracked owed
expect_run 2 md ack no-untracked --why "  "
expect_run 2 md ack pushed --why "not mine"
expect_run 0 md ack no-untracked --why "a peer's notes, written into this shared checkout"
expect_status no-untracked exempt
json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == 'no-untracked'][0]['evidence']" | grep -q "a peer's notes, written" ||
  fail "the acknowledgement's reason is not shown"
echo "mine" > more.txt
expect_status no-untracked owed
rm more.txt
expect_status no-untracked exempt

# Every bookkeeping question passes; none of them caps the score.
for q in todos-done claims-released filings-closed markers-live no-background-work measurable committed; do
  expect_status "$q" pass
done
set +e
md score --json > "$case_root/score.json"
code=$?
set -e
python3 - "$case_root/score.json" "$case_root/doc.json" "$code" <<'PY'
import json, sys
score = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
code = int(sys.argv[3])
mine = {"todos-done", "claims-released", "filings-closed", "markers-live", "no-background-work", "measurable", "no-untracked", "committed"}
ids = [c["id"] for c in score["caps"]]
assert not mine & set(ids), ids
open_ids = [q["id"] for q in doc["questions"] if q["status"] not in ("pass", "exempt")]
assert sorted(ids) == sorted(open_ids), (ids, open_ids)
expected = min([c["cap"] for c in score["caps"]], default=10)
assert score["score"] == expected, (score["score"], expected)
assert [c["cap"] for c in score["caps"]] == sorted(c["cap"] for c in score["caps"]), "caps not most severe first"
assert code == (0 if expected == 10 else 10), code
for c in score["caps"]:
    assert c["evidence"] and c["remedy"], c
PY

# The cached score reads the document without measuring, and knows when it
# is stale; having compared nothing, it never exits 0 (only a measured 10 does).
expect_run 10 md score --cached
expect_contains "cached"
expect_contains "not compared"
expect_not_contains "stale"
git commit -q --allow-empty -m "HEAD moves"
expect_run 10 md score --cached
expect_contains "stale: HEAD"
