#!/usr/bin/env bash
# The stop hook finds the tasks around where the agent stands. An agent
# that stood in a directory of the project and deleted it (`cd build/out;
# ...; rm -rf build`) stops with that directory as its cwd, and the hook
# runs there too (Codex, or a hand-run hook: no CLAUDE_PROJECT_DIR): the
# directory was no start, the process's own could not be read, no task was
# found and the stop went through. The nearest directory above a deleted
# one that still exists is the start, so the task there holds the stop.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
expect_run 0 md start "a feature"
echo 'fn greet() {}' > greet.rs
root=$PWD
mkdir -p build/out
cd build/out
rm -rf "$root/build"
unset CLAUDE_PROJECT_DIR
payload=$(printf '{"session_id":"s-1","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$root/build/out")
out=$(printf '%s' "$payload" | "$MAJORDOMUS" hook stop 2>/dev/null)
# (python, and so hook_decision, cannot start in a deleted directory)
expect_contains '"decision":"block"'
expect_contains 'the task \"a feature\" is not done'

# The same payload from elsewhere: the cwd alone leads there.
cd /
out=$(printf '%s' "$payload" | "$MAJORDOMUS" hook stop 2>/dev/null)
[ "$(hook_decision)" = "block" ] || fail "the stop naming a deleted directory was not blocked"
