# An agent's stop hook: silent with no task, a block naming what is owed
# while the invariant is open (or left unmeasured by the time budget), and
# the stop let through (saying why) once the policy's block limit is
# reached or the agent changed nothing, not even an unstaged edit. A policy
# the task broke keeps the start's in force and blocks.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo
printf '[hook]\nblock_limit = 2\n' > .ai/repo/majordomus.toml
echo "hello" > README
commit_all "initial"

payload() { # payload STOP_HOOK_ACTIVE
  printf '{"session_id":"s-1","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":%s,"last_assistant_message":"All done."}' "$PWD" "$1"
}
hook() { # hook STOP_HOOK_ACTIVE [ARGS...]: the hook's stdout in $out; it always exits 0
  local active=$1
  shift
  expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop "${@:2}" 2>/dev/null' _ "$(payload "$active")" "$@"
}
field() { printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1"; }

# No task: Claude Code gets nothing at all, Codex an empty object.
hook false --agent claude
[ -z "$out" ] || fail "expected no output without a task"
hook false --agent codex
[ "$out" = "{}" ] || fail "expected {} for Codex without a task"

expect_run 0 md start "add a greeting"
echo 'fn greet() {}' > greet.rs

# The work is not done: the stop is blocked, the reason carries check's done line.
expect_run 10 md check
done_line=$(printf '%s\n' "$out" | tail -n 1)
hook false
[ "$(field decision)" = "block" ] || fail "expected a block"
reason=$(field reason)
case "$reason" in *"$done_line"*) ;; *) fail "the reason lacks the done line '$done_line'" ;; esac
case "$reason" in *"no-untracked (owed"*"greet.rs"*) ;; *) fail "the reason does not name the untracked file" ;; esac

# Codex speaks the same block, and counts its blocks apart from Claude Code's.
hook false --agent codex
[ "$(field decision)" = "block" ] || fail "expected Codex to be blocked too"
case "$(field reason)" in *"block 1 of 2"*) ;; *) fail "Codex's first block is its own first" ;; esac

# Two blocks in a row is the policy's limit: the third stop goes through, saying what is owed.
hook false
case "$(field reason)" in *"block 2 of 2"*) ;; *) fail "expected Claude Code's second block" ;; esac
hook false
message=$(field systemMessage)
case "$message" in *"after 2 blocks in a row"*"$done_line"*) ;; *) fail "expected the block limit to let the stop through" ;; esac
[ -z "$(field decision)" ] || fail "a stop let through carries no decision"

# Blocked again, then the agent comes back (stop_hook_active) having changed nothing.
hook false
[ "$(field decision)" = "block" ] || fail "expected a new run of blocks to start"
hook true
case "$(field systemMessage)" in *"nothing changed"*) ;; *) fail "expected an unchanged retry to be let through" ;; esac

# Having changed something, it is held to the work again.
hook false
git add greet.rs
hook true
[ "$(field decision)" = "block" ] || fail "a change since the last block is blocked again"

# An edit neither staged nor committed, to a file already dirty, is a change too.
hook false
case "$(field systemMessage)" in *"after 2 blocks in a row"*) ;; *) fail "expected the block limit to end the run" ;; esac
hook false
[ "$(field decision)" = "block" ] || fail "expected a new run of blocks to start"
echo 'fn greet_again() {}' >> greet.rs
hook true
[ "$(field decision)" = "block" ] || fail "an unstaged edit since the last block is blocked again"
hook false
[ -z "$(field decision)" ] || fail "the block limit ends the run"

# A time budget too short to measure anything blocks, saying what went unmeasured.
hook false --budget-ms 0
[ "$(field decision)" = "block" ] || fail "an invariant the budget left unmeasured is not complete"
case "$(field reason)" in *"not measured"*"majordomus check"*) ;; *) fail "the reason does not say what went unmeasured" ;; esac

# A policy the task broke lets nothing through: the start's policy stays in
# force (its block limit of 2 included), the block names the broken file.
printf '[hook]\nblock_limit = "two"\n' > .ai/repo/majordomus.toml
hook false
[ "$(field decision)" = "block" ] || fail "a policy the task broke let the stop through"
case "$(field reason)" in *"of 2)"*"majordomus.toml:2:"*) ;; *) fail "expected the block to name the broken policy, under the start's block limit" ;; esac
git checkout -q -- .ai/repo/majordomus.toml

[ -z "$(git status --porcelain --ignored=no | grep -v greet.rs)" ] || fail "the hook left something in git status"
