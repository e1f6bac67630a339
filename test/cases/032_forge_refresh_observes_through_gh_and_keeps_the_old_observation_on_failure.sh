# `forge refresh` observes the forge through gh (here a stand-in on PATH
# from the start, that answers as gh's manual documents), with every GIT_* variable
# cleared but those naming the configuration files git reads (test/cases/476),
# asks about each issue the task's ledger names, and records the observation; when gh is missing, fails or answers nonsense, the recorded
# observation is kept. `forge record` refuses a bad file the same way.
source "$(dirname "$0")/../lib.sh" || exit 2

fake="$case_root/fake-gh"
mkdir -p "$fake/bin" "$case_root/empty"
cat > "$fake/bin/gh" <<'GH'
#!/usr/bin/env bash
# A stand-in for gh: answers as `gh ... --json` documents.
dir=$(dirname "$0")/..
printf '%s\n' "$*" >> "$dir/calls"
env | grep '^GIT_' | grep -v '^GIT_CONFIG_\(GLOBAL\|SYSTEM\|NOSYSTEM\)=' >> "$dir/git-env" || true
env | grep '^GIT_CONFIG_\(GLOBAL\|NOSYSTEM\)=' >> "$dir/git-config-env" || true
if [ -e "$dir/fail" ]; then
  echo "HTTP 401: Bad credentials (https://api.github.com/graphql)" >&2
  exit 1
fi
case "$1 $2" in
  "repo view") echo '{"nameWithOwner":"acme/widgets"}' ;;
  "pr list") cat "$dir/prs.json" ;;
  "issue view")
    case "$3" in
      7) echo '{"labels":[{"id":"LA_1","name":"limitation","description":"","color":"ededed"}],"number":7,"state":"OPEN","title":"a known limit","url":"https://github.com/acme/widgets/issues/7"}' ;;
      # A pull request's number: gh answers with the pull request.
      8) echo '{"labels":[],"number":8,"state":"MERGED","title":"a landed change","url":"https://github.com/acme/widgets/pull/8"}' ;;
      *) echo "GraphQL: Could not resolve to an issue or pull request with the number of $3. (repository.issue)" >&2; exit 1 ;;
    esac ;;
  *) echo "unknown command \"$1\" for \"gh\"" >&2; exit 1 ;;
esac
GH
chmod +x "$fake/bin/gh"
export PATH="$fake/bin:$PATH"
forge=.git/majordomus/forge.json

echo "hello" > README
commit_all "initial"
expect_run 0 md start "work with issues"
task_id=$(json_get .ai/local/state/task.json 'd["id"]')
# Taken after the start, as a pull request opened since it is: taken
# before, the second can turn in between and the PR would predate the task.
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
cat > "$fake/prs.json" <<JSON
[{"author":{"id":"U_1","is_bot":false,"login":"ann","name":"Ann"},"createdAt":"2020-01-01T00:00:00Z","headRefName":"old-work","number":41,"state":"OPEN","title":"older work"},
 {"author":{"id":"U_2","is_bot":false,"login":"bob","name":""},"createdAt":"$now","headRefName":"new-work","number":42,"state":"OPEN","title":"new work"}]
JSON
for issue in 7 8 99; do
  printf '{"at":"%s","task":"%s","kind":"claim","issue":"%s"}\n' "$now" "$task_id" "$issue" >> .ai/local/state/ledger.jsonl
done

# gh missing from PATH: a setup error, nothing recorded.
PATH="$case_root/empty" expect_run 2 md forge refresh
expect_contains "gh was not found on PATH"
[ ! -e "$forge" ] || fail "a failed refresh recorded an observation"

# Observed through gh, with the GIT_* environment cleared.
GIT_DIR=/nowhere GIT_WORK_TREE=/nowhere expect_run 0 md forge refresh
expect_contains "recorded the forge observation of acme/widgets"
[ ! -s "$fake/git-env" ] || fail "gh ran with GIT_* set: $(cat "$fake/git-env")"
grep -qx "GIT_CONFIG_GLOBAL=$GIT_CONFIG_GLOBAL" "$fake/git-config-env" ||
  fail "gh's git did not read the user's configuration file: $(cat "$fake/git-config-env")"
grep -qx 'pr list --state open --json number,title,author,headRefName,createdAt,state --limit 1000' "$fake/calls" ||
  fail "gh pr list was not asked as documented: $(cat "$fake/calls")"
grep -qx 'issue view 7 --repo acme/widgets --json number,state,labels,title,url' "$fake/calls" || fail "issue 7 not asked about"
python3 - <<'PY'
import json
obs = json.load(open(".git/majordomus/forge.json"))
assert obs["schema"] == "majordomus/forge/v1", obs
assert obs["repository"] == "acme/widgets", obs
prs = {p["number"]: p for p in obs["pull_requests"]}
assert prs[42]["author"] == "bob" and prs[42]["head"] == "new-work" and prs[42]["state"] == "open", prs
issues = {i["number"]: i for i in obs["issues"]}
assert issues[7]["state"] == "open" and issues[7]["labels"] == ["limitation"], issues
assert issues[7]["is_pull_request"] is False, issues
# A merged pull request, asked about by its number: closed, and known for one.
assert issues[8]["state"] == "closed" and issues[8]["is_pull_request"] is True, issues
assert issues[99]["state"] == "missing" and issues[99]["repository"] == "acme/widgets", issues
PY
expect_run 10 md check
expect_contains "backlog-not-grown=owed"
expect_contains '#42 "new work" by bob'
cp "$forge" "$case_root/kept.json"

# gh failing: exit 13 with gh's message, the old observation kept.
touch "$fake/fail"
expect_run 13 md forge refresh
expect_contains "Bad credentials"
cmp -s "$forge" "$case_root/kept.json" || fail "a failed refresh changed the observation"
rm "$fake/fail"

# gh answering what its manual does not describe: the same.
echo '{"not": "a list"}' > "$fake/prs.json"
expect_run 13 md forge refresh
expect_contains "gh pr list"
cmp -s "$forge" "$case_root/kept.json" || fail "a nonsense answer changed the observation"

# forge record: a bad file is refused with exit 2 and changes nothing.
echo '{"schema": "someone-else/v1", "observed_at": "2026-01-01T00:00:00Z", "repository": "o/r"}' > "$case_root/foreign.json"
expect_run 2 md forge record "$case_root/foreign.json"
expect_contains 'expected "majordomus/forge/v1"'
echo 'not json' | expect_run 2 md forge record -
# A state outside the schema's enum (a pull request asked about as an issue
# is open or closed; merged is closed) is refused the same way.
echo '{"schema": "majordomus/forge/v1", "observed_at": "2026-01-01T00:00:00Z", "repository": "o/r",
       "issues": [{"repository": "o/r", "number": 8, "state": "merged", "is_pull_request": true}]}' > "$case_root/merged.json"
expect_run 2 md forge record "$case_root/merged.json"
expect_contains "issue o/r#8's state \"merged\" is not one of open, closed, missing"
cmp -s "$forge" "$case_root/kept.json" || fail "a refused record changed the observation"
