# The ledger's last line without its final newline is a write that did not
# finish: every reader ignores it (README, "Reliability"), and the stop
# hook says so, so the person learns the ledger was damaged: after the
# reason of a block, or in the message of a stop let through. A note, not
# a verdict: it blocks nothing by itself.
source "$(dirname "$0")/../lib.sh" || exit 2

field() { printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1"; }

echo hello > README
commit_all "initial"
expect_run 0 md start "a greeting"
expect_run 0 md todo add "say hello"
ledger=.ai/local/state/ledger.jsonl
printf '{"at": "2026-11-30T10:00:00Z", "task": "t", "kind": "todo_a' >> "$ledger"
echo 'fn greet() {}' > greet.rs

stop_hook "$repo"
[ "$(hook_decision)" = block ] || fail "the open task's stop went through"
reason=$(field reason)
case "$reason" in *"no-untracked (owed"*) ;; *) fail "the block lost its reason" ;; esac
case "$reason" in *"ledger was damaged"*"ledger.jsonl:2"*"did not finish"*) ;; *) fail "the block does not name the torn ledger line" ;; esac

# Let through (the agent came back having changed nothing): the message names it.
payload=$(printf '{"session_id":"s-1","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":true}' "$repo")
expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ "$payload"
[ -z "$(hook_decision)" ] || fail "the unchanged retry was blocked"
case "$(field systemMessage)" in *"nothing changed"*"ledger was damaged"*"did not finish"*) ;; *) fail "the message of a stop let through does not name the torn ledger line" ;; esac

# Repaired by the next append: nothing more is said.
expect_run 0 md todo done 1
stop_hook "$repo"
case "$out" in *"ledger was damaged"*) fail "a repaired ledger is still called damaged" ;; esac
