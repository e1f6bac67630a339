#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A run's budget is kept in the carry record (`majordomus carry`). The
# owner, its budget spent (`carry budget` answers stop), ran `carry end`
# and `carry begin` again with the same invocation: nothing was carried,
# so a new run began and `carry budget` answered go, a fresh --max for the
# process that had just spent it. A begin from the process that ended the
# run is the same run, taking up what it had spent; a new run is begun by
# another process (a new session).

echo "hello" > README
commit_all "initial"
lib_owners
lib_owner; a=$!
inv="backlogrun --max 1"
record=.git/majordomus/carry.json

expect_run 0 md carry begin "$inv" --owner "$a"
expect_contains began
expect_run 0 md carry count --merged 1 --owner "$a"
expect_run 10 md carry budget
expect_contains "1 merged of --max 1"

# Ended and begun again from the same process: the same run.
expect_run 0 md carry end
expect_contains ended
expect_run 0 md carry begin "$inv" --owner "$a"
expect_contains resumed
expect_contains "takes it up again with what it had spent (1 merged"
expect_run 10 md carry budget
expect_contains "1 merged of --max 1"
[ "$(json_get "$record" "d['merged']")" = 1 ] || fail "the begin did not take up the count: $(cat "$record")"

# Its whole-run bound spent, ended and begun again: expired, nothing written.
python3 - "$record" <<'PY'
import json, sys, datetime
r = json.load(open(sys.argv[1]))
r["started_at"] = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=9)).strftime("%Y-%m-%dT%H:%M:%SZ")
json.dump(r, open(sys.argv[1], "w"))
PY
expect_run 0 md carry end
expect_run 10 md carry begin "$inv" --owner "$a"
expect_contains expired
[ ! -e "$record" ] || fail "an expired begin wrote a record"

# The honest way: a new run, begun by another process.
lib_owner; b=$!
expect_run 0 md carry begin "$inv" --owner "$b"
expect_contains began
expect_run 0 md carry budget
expect_contains "0 merged of --max 1"
