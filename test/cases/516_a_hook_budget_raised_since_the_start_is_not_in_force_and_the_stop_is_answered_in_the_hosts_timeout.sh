# The stop hook answers before the host's timeout even when a reading never
# returns (test/cases/320): its watch waits out the time budget in force and
# a grace, then blocks; `hook install` sizes the host's timeout to the budget
# in force then. A task that raises `[hook] budget_ms` in the policy file
# (uncommitted, or committed) would have the watch wait past that timeout:
# the host kills the hook, and a killed hook lets the stop through with the
# work open. So a raised budget is a loosening, named and not in force for
# the task that made it; a lowered one is in force at once (a reading it cuts
# off is unknown, which blocks), and the watch keeps to the budget in force,
# below the default too, as the timeout `hook install` wrote was sized to it.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
mkdir -p .ai/repo
printf '[hook]\nbudget_ms = 1000\n' > .ai/repo/majordomus.toml
exempt_forge
commit_all "initial"
with_origin
md start "the parser" >/dev/null
# The least timeout a budget of 1000 ms leaves room for.
expect_run 0 md hook install --agent claude --timeout 7
host_timeout=$(python3 -c 'import json; d=json.load(open(".claude/settings.json")); print([h["timeout"] for e in d["hooks"]["Stop"] for h in e["hooks"]][0])')
[ "$host_timeout" = 7 ] || fail "setup: the installed Stop hook's timeout is $host_timeout"
echo work > src.txt

# The task's loosening of the watch: a budget past the host's timeout.
printf '[hook]\nbudget_ms = 120000\n' > .ai/repo/majordomus.toml
exempt_forge

# A reading that never returns: the hook answers within the start's budget.
mkfifo .gitmodules
payload=$(printf '{"session_id":"s-1","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$PWD")
set +e
out=$(printf '%s' "$payload" | timeout "$host_timeout" "$MAJORDOMUS" hook stop 2>/dev/null)
got=$?
set -e
[ "$got" -ne 124 ] || fail "no answer within the host's timeout of ${host_timeout} s: the host kills the hook and the stop goes through"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the work open"
expect_contains "FIFO"
rm .gitmodules

# Named, and not in force.
expect_run 10 md check
expect_contains "[hook] budget_ms: raised from 1000 to 120000"
expect_contains "a loosening, so not in force for this task"

# A budget lowered is in force at once.
printf '[hook]\nbudget_ms = 500\n' > .ai/repo/majordomus.toml
exempt_forge
expect_run 10 md check
expect_contains "[hook] budget_ms: lowered from 1000 to 500"
expect_contains "it only adds strictness, so it is in force at once"
