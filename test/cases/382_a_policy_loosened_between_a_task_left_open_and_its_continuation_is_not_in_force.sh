# README, "A task, start to finish": a start after a task left open
# continues it, and took the policy file from the new start. So the
# policy rewritten between `finish --outcome partial` and the next
# `start`, and left uncommitted (the failing gate removed, the policy's
# own edit exempted from `committed`), judged the task continued, and the
# next check said `done: complete`: the gate failing on the final tree,
# the edit never committed. A continued task keeps the policy it started
# under, whenever the change was made and whoever starts it again (the
# session-start hook's `auto_start` included); what only adds strictness
# is in force at once, as during any task.
source "$(dirname "$0")/../lib.sh" || exit 2

start_broken_on_origin "grep -q fixed src/lib.rs"
expect_run 10 md gate run unit
expect_run 0 md finish --outcome partial

# Between the finish and the start, the policy rewritten: the gate gone,
# the edit of the policy exempted, a new session to start the task itself.
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[[exempt]]
question = "committed"
reason = "the policy edit is local"

[hook]
auto_start = true
TOML
expect_run 0 md start "fix a, continued"
started=$out
expect_run 10 md check
expect_open gates-green "unit" "refused"
expect_also committed "majordomus.toml"
expect_also committed 'continues "fix a"'
out=$started
expect_contains 'continues "fix a"'
expect_contains 'policy: [gates.unit]'
expect_contains 'policy: [[exempt]] committed'

# What only adds strictness is in force at once: a gate added since.
cat >> .ai/repo/majordomus.toml <<'TOML'

[gates.lint]
run = "true"
inputs = ["src/**"]
TOML
expect_run 10 md check
expect_open gates-green "lint" "refused owed"
expect_also gates-green "unit" "refused owed"

# Ended again, the task is continued by a new session's auto_start, under
# the policy it started under all the same.
expect_run 0 md finish --outcome partial
payload=$(printf '{"session_id":"7d2f0c1a-9b3e","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' "$PWD")
expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook session-start --agent codex' _ "$payload"
json_get .ai/local/state/task.json 'd["snapshot"]["previous"]["id"] == d["id"]' | grep -qx True ||
  fail "the session's auto_start did not continue the task left open"
expect_run 10 md check
expect_open gates-green "unit" "refused owed"
expect_also committed "majordomus.toml"
