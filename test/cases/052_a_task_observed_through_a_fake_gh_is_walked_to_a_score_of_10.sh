# A task claims and files issues, declares a todo and adds a limitation
# marker; the forge is observed only through gh (a stand-in on PATH from the start that
# answers as gh's manual documents), never written by hand. A marker naming
# a pull request is refused; each bookkeeping question walks from owed or
# refused to pass as the forge says the work is settled, until `check` is
# complete and `score` prints 10.
source "$(dirname "$0")/../lib.sh" || exit 2

# The marker word, spelled so this file never holds a marker itself.
L="LIMIT""ATION"

fake_gh_with_issues

# On PATH from the start (fake_gh_with_issues): an observation counts only
# through the gh the task's start PATH finds.
refresh() { expect_run 0 md forge refresh; }

mkdir -p src tests
echo 'pub fn parse() {}' > src/lib.rs
commit_all "initial"
expect_run 0 md start "parse the header" --scope src --scope tests

expect_run 0 md todo add parse the header
expect_run 0 md issue claim 1
expect_run 0 md issue claim other/repo#3
expect_run 0 md issue file 2
echo "// $L(#2): the header's extension fields are not parsed" >> src/lib.rs
echo "// $L(#5): a pull request's number, not an issue's" >> src/lib.rs
echo '#[test] fn parses() {}' > tests/parse.rs
commit_all "parse the header"

# The forge as it stands: #1 open, other/repo#3 open, #2 open without the
# label, #5 a pull request.
on_forge acme/widgets 1 open
on_forge other/repo 3 open
on_forge acme/widgets 2 open
on_forge acme/widgets 5 pr-open limitation
refresh
grep -qx 'issue view 3 --repo other/repo --json number,state,labels,title,url' "$fake/calls" ||
  fail "other/repo#3 was not asked of its own repository: $(cat "$fake/calls")"
json_get .git/majordomus/forge.json "[i['is_pull_request'] for i in d['issues'] if i['number'] == 5][0]" | grep -qx True ||
  fail "#5 was not recorded as a pull request"
expect_run 10 md check
expect_contains "claims-released=owed"
expect_contains "filings-closed=owed"
expect_contains "markers-live=refused"
expect_contains "todos-done=owed"
expect_contains "#1 is still open"
expect_contains "other/repo#3 is still open"
expect_contains "src/lib.rs:3"
expect_contains "names #5, which is a pull request"
expect_contains "not labelled limitation"
expect_run 10 md score
expect_contains "6/10"

# The marker naming a pull request is pointed at the limitation instead.
sed -i "s/$L(#5)/$L(#2)/" src/lib.rs
commit_all "the marker names the issue"
refresh
expect_run 10 md check
expect_contains "markers-live=refused"
expect_not_contains "#5"

# #1 released; other/repo#3 closed as merged work lands; #2 labelled.
expect_run 0 md issue release 1
on_forge other/repo 3 closed
on_forge acme/widgets 2 open limitation
refresh
expect_status claims-released pass
expect_status filings-closed pass
expect_status markers-live pass
json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == 'filings-closed'][0]['evidence']" | grep -q "registered limitation" ||
  fail "the registered limitation is not stated"

# The last todo done: nothing is left.
expect_run 10 md check
expect_done_line "done: todos-done=owed"
expect_run 0 md todo done 1
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
set +e
md score --json > "$case_root/score.json"
code=$?
set -e
[ "$code" -eq 0 ] || fail "score exited $code at completion"
python3 - "$case_root/score.json" "$case_root/doc.json" <<'PY'
import json, sys
score = json.load(open(sys.argv[1]))
assert score["score"] == 10 and score["caps"] == [], score
doc = json.load(open(".ai/local/state/gates.completion.json"))
assert doc["complete"] is True and doc["score"] == 10, (doc["complete"], doc["score"])
status = {q["id"]: q["status"] for q in doc["questions"]}
for q in ["todos-done", "claims-released", "filings-closed", "markers-live", "no-background-work", "measurable", "backlog-not-grown"]:
    assert status[q] == "pass", (q, status[q])
# Where a question cannot apply here, it says so: no remote, no gates, no baselines.
assert {q for q, s in status.items() if s == "exempt"} == {"pushed", "gates-green", "no-new-debt"}, status
PY
expect_run 0 md score
expect_contains "10/10"
