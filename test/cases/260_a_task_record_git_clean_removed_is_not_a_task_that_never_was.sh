# `git clean -xdf` (or `rm -r .ai`) removes the task record with the rest of
# the state directory. That is no way to make an unfinished task disappear:
# the copy `start` keeps in the git directory says a task was never
# finished, every question is unknown, the stop hook blocks, and the remedy
# `check` gives puts the record back when run as written. Finishing it with
# another outcome than completed ends it, and the next start names it.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "one" > a.txt
commit_all "initial"
md start "the parser" >/dev/null
[ -f .git/majordomus/task.json ] || fail "start kept no copy of the record in the git directory"
cmp -s .git/majordomus/task.json .ai/local/state/task.json || fail "the copy is not the record"
echo "two" >> a.txt
echo "new" > b.txt

git clean -xdfq
[ ! -e .ai ] || fail "git clean left .ai (the case needs it gone)"

expect_run 10 md check
expect_contains "is gone while its task \"the parser\""
expect_contains "was never finished"
expect_not_contains "No task record says where this work started"
expect_run 0 python3 -c '
import json
doc = json.load(open(".ai/local/state/gates.completion.json"))
assert not doc["complete"]
status = {q["id"]: q["status"] for q in doc["questions"]}
for q in ("committed", "no-untracked", "measurable", "todos-done", "gates-green"):
    assert status[q] == "unknown", (q, status[q])'

stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the stop hook let a stop through while the task record was gone"
expect_contains "is gone while its task"

# A new start is refused while the old task is neither put back nor ended.
expect_run 15 md start "a fresh start"
expect_contains "finish --outcome partial"

# The remedy, run as written, puts the record back: the task is measured again.
rm -rf .ai
expect_run 10 md check --json
restore=$(python3 -c '
import json, re, sys
doc = json.loads(sys.argv[1])
print(re.search(r"`(mkdir[^`]*)`", doc["questions"][0]["evidence"]).group(1))' "$out")
eval "$restore"
expect_run 10 md check
expect_contains "committed=owed"
expect_contains "measurable=owed"

# Gone again, and ended as partial: the stop is free, and the next start
# names the task before it.
rm -rf .ai
expect_run 2 md finish --outcome completed
expect_run 0 md finish --outcome partial
[ ! -e .git/majordomus/task.json ] || fail "finish left the copy behind"
stop_hook "$PWD"
[ -z "$(hook_decision)" ] || fail "the stop hook blocked after the task was finished: $out"
expect_run 0 md start "next"
expect_contains "\"the parser\""
expect_contains "ended partial"
