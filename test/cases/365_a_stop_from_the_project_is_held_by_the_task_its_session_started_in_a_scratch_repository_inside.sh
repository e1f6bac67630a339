# The agent makes a scratch repository inside the project, in a directory
# the project ignores (`git init tmp/scratch`), starts its task there and
# leaves work in it, then stops from the project. The stop asked the
# project (no task) and nothing below it: it went through, silently. A
# start made in an agent's session leaves a note in every repository
# around its own, and the session's stop made there asks that task too.
source "$(dirname "$0")/../lib.sh"

echo base > README
echo "/tmp/" > .gitignore
exempt_forge
commit_all "initial"
with_origin

git init -q -b main tmp/scratch
(
  cd tmp/scratch
  echo a > a.txt && git add a.txt && git commit -qm "a"
  expect_run 0 env CLAUDECODE=1 CLAUDE_CODE_SESSION_ID=s-1 "$MAJORDOMUS" start "scratch work" --owner-pid $$
  echo b > b.txt
  expect_run 10 md check
)

stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop from the project to be blocked while this session's task in tmp/scratch is open"
expect_contains "scratch work"
expect_contains "tmp/scratch"

# Another session's stop is not held by it.
payload=$(printf '{"session_id":"s-2","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$repo")
expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ "$payload"
[ -z "$(hook_decision)" ] || fail "expected another session's stop not to be held by the scratch task"

# Ended there, the stop goes through.
expect_run 0 md -C tmp/scratch finish --outcome partial
stop_hook "$repo"
[ -z "$(hook_decision)" ] || fail "expected the stop to go through once the scratch task was finished"
