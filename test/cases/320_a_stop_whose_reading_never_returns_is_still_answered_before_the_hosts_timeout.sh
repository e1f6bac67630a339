# A reading blocked in the kernel asks no clock: a loose ref made a FIFO
# (or a reflog, .gitmodules; `.git/packed-refs` until test/cases/545 refused
# it before the open) makes git's readers wait for a writer forever. Past
# its timeout the host kills the stop hook, and a killed hook neither
# blocks nor says why: the stop goes through. The hook
# answers on its own clock instead, by its time budget and a grace inside
# the margin `hook install` leaves: blocked, as nothing is known to be done
# (a stop that came of a block goes through, saying why: watchdog.rs's test).
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
md start "the parser" >/dev/null
echo work > src.txt

stop_with() {
  local payload
  payload=$(printf '{"session_id":"s-1","cwd":"%s","hook_event_name":"Stop","stop_hook_active":%s}' "$PWD" "$1")
  set +e
  out=$(printf '%s' "$payload" | timeout 20 "$MAJORDOMUS" hook stop --budget-ms 200 2>/dev/null)
  got=$?
  set -e
  [ "$got" -ne 124 ] || fail "the stop hook gave no answer before the host's timeout"
  [ "$got" -eq 0 ] || fail "the stop hook exited $got"
}

# The upstream's loose ref file: one libgit2 opens, blocking, in the
# readings (a FIFO at .git/packed-refs is now refused before the
# repository is opened, test/cases/545, and never reaches the watch).
upstream=.git/refs/remotes/origin/main
git update-ref refs/remotes/origin/main "$(git rev-parse refs/remotes/origin/main)"
mv "$upstream" "$upstream.aside"
mkfifo "$upstream"
stop_with false
[ "$(hook_decision)" = "block" ] || fail "the stop went through with a reading that never returned"
expect_contains "FIFO"
expect_contains "could not answer within"
rm "$upstream"
mv "$upstream.aside" "$upstream"

# Answered in time, the hook's own verdict is the one given.
stop_with false
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the work open"
expect_contains "no-untracked"
