# The session-start hook tells the agent, before it works, what it is held
# to: with no task, how to start one; with [hook] auto_start, a session
# starting afresh records the task itself (never a resumed one), and the
# stop hook then holds the session to it.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
commit_all "initial"
session() { # session SOURCE: the hook's answer to a session start
  printf '{"session_id":"7d2f0c1a-9b3e","cwd":"%s","hook_event_name":"SessionStart","source":"%s"}' "$PWD" "$1" |
    "$MAJORDOMUS" hook session-start --agent codex
}
context() { printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["hookSpecificOutput"]["additionalContext"])'; }

out=$(session startup)
case "$(context)" in *"no task is active"*"majordomus start"*) ;; *) fail "without a task, the agent is told how to start one" ;; esac
[ ! -e .ai/local/state/task.json ] || fail "no task is started without auto_start"

mkdir -p .ai/repo
printf '[hook]\nauto_start = true\n' > .ai/repo/majordomus.toml
commit_all "auto_start"
out=$(session resume)
[ ! -e .ai/local/state/task.json ] || fail "a resumed session starts no task"
out=$(session startup)
case "$(context)" in *'the task "Codex session 7d2f0c1a"'*"auto_start"*"score "*"done: "*) ;; *) fail "a task is started and its done line told" ;; esac
json_get .ai/local/state/task.json 'd["task"]' | grep -qx "Codex session 7d2f0c1a" || fail "the task is titled from the session"

# What the session then does is held to that start.
echo 'fn greet() {}' > greet.rs
out=$(printf '{"session_id":"7d2f0c1a-9b3e","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$PWD" |
  "$MAJORDOMUS" hook stop --agent codex)
case "$out" in *'"decision":"block"'*"greet.rs"*) ;; *) fail "the stop is held to the started task" ;; esac
