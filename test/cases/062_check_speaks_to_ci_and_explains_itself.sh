# For CI: `check --format github` annotates each open question (errors for
# refused, warnings otherwise) and ends with the done line; `schema` prints
# the document's JSON Schema; `explain` says what a question asks.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
commit_all "initial"
expect_run 0 md start "add a greeting"
echo "draft" > notes.txt

expect_run 10 md check
text_done=$(printf '%s\n' "$out" | tail -n 1)
expect_run 10 md check --format github
expect_done_line "$text_done"
expect_contains "::warning file=notes.txt,title=majordomus%3A no-untracked is owed::1 untracked file appeared since the start: notes.txt."
annotations=$(printf '%s\n' "$out" | grep -c '^::\(warning\|error\) \(file=[^,]*,\)\?title=')
open_questions=$(printf '%s\n' "$text_done" | wc -w)
[ "$annotations" -eq $((open_questions - 1)) ] || fail "expected one annotation per open question ($annotations for $((open_questions - 1)))"

expect_run 0 md schema completion
printf '%s' "$out" > schema.json
python3 - schema.json <<'PY'
import json, sys
schema = json.load(open(sys.argv[1]))
assert schema["properties"]["schema"]["const"] == "majordomus/gates.completion/v1"
assert schema["$defs"]["status"]["enum"] == ["pass", "owed", "refused", "unknown", "exempt"]
PY
rm schema.json

expect_run 0 md explain no-untracked
expect_contains "no-untracked (commit stage; question 5 of 19)"
expect_contains "remedy: commit, ignore or remove the new untracked files"
expect_run 2 md explain untracked
expect_contains "no question is called"
