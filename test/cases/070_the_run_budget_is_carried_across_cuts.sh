# A run's budget is carried in the record across two cuts and a crash, with
# real processes as owners: every session sees the run's own counts and
# clock, a cut is handed to exactly one successor, a dead owner leaves a
# standing record for a person, and the budget stops the run at --max.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
commit_all "initial"

# Owners are real processes; whatever is left is killed when the case ends.
lib_owners

# expect_verdict CODE WORD CMD...: CMD exits CODE and prints exactly WORD on
# standard output; both streams are kept in $out.
expect_verdict() {
  local want_code=$1 want_word=$2
  shift 2
  local err
  err=$(mktemp)
  set +e
  local word
  word=$("$@" 2>"$err")
  local got=$?
  set -e
  out="$word"$'\n'"$(cat "$err")"
  rm -f "$err"
  [ "$got" -eq "$want_code" ] || fail "expected exit $want_code from '$*', got $got"
  [ "$word" = "$want_word" ] || fail "expected the verdict '$want_word' from '$*', got '$word'"
}

record=.git/majordomus/carry.json
field() { json_get "$record" "d$1"; }
inv="backlogrun --max 3 --hours 8"

# --- Session one ---------------------------------------------------------
lib_owner; a=$!
expect_verdict 0 began md carry begin "$inv" --owner "$a"
started=$(field '["started_at"]')
[ "$(field '["owner"]["pid"]')" = "$a" ] || fail "the record does not name its owner"
[ "$(field '["owner"]["start_time"]')" != "None" ] || fail "the owner's start time was not recorded"

# A non-canonical invocation is refused with the canonical form, and changes nothing.
before=$(cat "$record")
expect_run 2 md carry begin "backlogrun  --max 03 --hours 8" --owner "$a"
expect_contains '"backlogrun --max 3 --hours 8"'
[ "$before" = "$(cat "$record")" ] || fail "a refused begin changed the record"

# A second parent is answered busy.
lib_owner; b=$!
expect_verdict 10 busy md carry begin "$inv" --owner "$b"

expect_verdict 0 counted md carry count --merged 1 --owner "$a"
expect_verdict 0 counted md carry count --filed 1 --owner "$a"
# Only the owner counts.
expect_run 2 md carry count --merged 1 --owner "$b"
expect_contains "only the owning process"

# --- Cut one: handed to exactly one successor, while the cutter still runs --
expect_verdict 0 cut md carry cut --owner "$a"
expect_run 2 md carry count --merged 1 --owner "$a"
expect_contains "after a cut"
kill -0 "$a" || fail "the cutting process should still run"
expect_verdict 0 resumed md carry begin "$inv" --owner "$b"
lib_owner; c=$!
expect_verdict 10 busy md carry begin "$inv" --owner "$c"

# --- Session two, from a linked worktree: the one record --------------------
git worktree add -q "$case_root/side" -b side
expect_run 0 md -C "$case_root/side" carry show --json
python3 - "$out" "$b" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["owner"]["pid"] == int(sys.argv[2]), r
assert (r["merged"], r["filed"], r["cuts"]) == (1, 1, 1), r
PY
expect_verdict 0 counted md -C "$case_root/side" carry count --merged 1 --owner "$b"
expect_verdict 0 go md carry budget
expect_contains "2 merged of --max 3"

# --- Cut two --------------------------------------------------------------
expect_verdict 0 cut md carry cut --owner "$b"
expect_verdict 0 resumed md carry begin "$inv" --owner "$c"
expect_verdict 0 counted md carry count --merged 1 --owner "$c"

# --- Session three crashes: the record stands, a person decides ------------
kill "$c"
wait "$c" 2>/dev/null || true
lib_owner; d=$!
expect_verdict 10 standing md carry begin "$inv" --owner "$d"
expect_contains "majordomus carry resume \"$inv\" --owner"
expect_contains "majordomus carry end"
expect_verdict 10 mismatch md carry begin "backlogrun --max 4" --owner "$d"
expect_verdict 0 resumed md carry resume "$inv" --owner "$d"

# The budget counted across both cuts and the crash, from the run's own start.
expect_verdict 10 stop md carry budget
expect_contains "3 merged of --max 3"
[ "$(field '["started_at"]')" = "$started" ] || fail "a resume restarted the run's clock"
[ "$(field '["merged"]') $(field '["filed"]') $(field '["cuts"]')" = "3 1 2" ] || fail "the counts were not carried: $(cat "$record")"

# --- A reused pid is not the owner: a live pid with another start time -----
python3 - "$record" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["owner"]["start_time"] += 1
json.dump(r, open(sys.argv[1], "w"))
PY
expect_verdict 10 standing md carry begin "$inv" --owner "$b"

# --- The end, and a second end that finds nothing ---------------------------
expect_verdict 0 ended md carry end --stopped "the maximum was reached"
expect_contains "the maximum was reached"
expect_verdict 0 absent md carry end
[ "$(wc -l < .git/majordomus/carry-history.jsonl)" -eq 1 ] || fail "the second end wrote history"

# --- Two begins at once: one began, one busy, never two owners --------------
lib_owner; e=$!
lib_owner; f=$!
md carry begin "$inv" --owner "$e" > "$case_root/e.out" 2>/dev/null & pe=$!
md carry begin "$inv" --owner "$f" > "$case_root/f.out" 2>/dev/null & pf=$!
wait "$pe" || true
wait "$pf" || true
both=$(cat "$case_root/e.out" "$case_root/f.out" | sort | tr '\n' ' ')
[ "$both" = "began busy " ] || fail "two begins at once answered: $both"

# --- A spent run: expired, and a resume adopts nothing -----------------------
owner_now=$(field '["owner"]["pid"]')
expect_verdict 0 cut md carry cut --owner "$owner_now"
python3 - "$record" <<'PY'
import json, sys, datetime
r = json.load(open(sys.argv[1]))
r["started_at"] = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=9)).strftime("%Y-%m-%dT%H:%M:%SZ")
json.dump(r, open(sys.argv[1], "w"))
PY
expect_verdict 10 expired md carry begin "$inv" --owner "$d"
expect_verdict 10 expired md carry resume "$inv" --owner "$d"
[ "$(field '["handed_off"]')" = "True" ] || fail "an expired answer adopted the record"

# --- Unreadable and unknown ------------------------------------------------
echo "{ half a rec" > "$record"
expect_verdict 13 unreadable md carry begin "$inv" --owner "$d"
expect_verdict 13 unreadable md carry budget
expect_verdict 0 ended md carry end
expect_verdict 13 unknown md -C "$case_root/home" carry begin "$inv" --owner "$d"

# The record out of reach (its lock is not a file): still one word, unknown.
lock="$(dirname "$record")/carry.lock"
rm -f "$lock" && mkdir "$lock"
expect_verdict 13 unknown md carry begin "$inv" --owner "$d"
expect_contains "could not be read or written"
rmdir "$lock"
