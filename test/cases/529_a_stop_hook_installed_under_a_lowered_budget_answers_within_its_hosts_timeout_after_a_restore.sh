# The stop hook answers before the host's timeout even when a reading never
# returns (test/cases/320, 516): its watch waits out the budget in force and
# a grace. But the host's timeout is whatever `hook install` gave it then,
# and the budget in force can rise again after: lower `[hook] budget_ms`
# (stricter, in force at once), re-run `hook install --timeout 7` (accepted
# against the lower budget), put the policy file back (the start's budget,
# 20 s, in force again, no loosening). The watch would wait 20 s + grace,
# the host kills the hook at 7 s and the stop goes through with the work
# open. So `hook install` writes the host's timeout into the stop's command
# (`--host-timeout`), and the stop's measurement and watch keep within it,
# less the install's margin, whatever the policy says later. The installed
# command is run here as the host runs it, through the shell.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
majordomus_on_path
md start "the parser" >/dev/null
expect_run 0 md hook install --agent claude --timeout 60
echo work > src.txt

installed() { # installed FIELD: the Stop hook's FIELD, as installed
  python3 -c 'import json,sys; d=json.load(open(".claude/settings.json")); print([h[sys.argv[1]] for e in d["hooks"]["Stop"] for h in e["hooks"]][0])' "$1"
}

cp .ai/repo/majordomus.toml "$case_root/policy"
printf '[hook]\nbudget_ms = 1000\n' >> .ai/repo/majordomus.toml
expect_run 0 md hook install --agent claude --timeout 7
cp "$case_root/policy" .ai/repo/majordomus.toml
host_timeout=$(installed timeout)
command=$(installed command)
[ "$host_timeout" = 7 ] || fail "setup: the installed Stop hook's timeout is $host_timeout"

# A reading that never returns: the installed command answers within the
# host's timeout, and blocks.
stop_as_installed() {
  payload=$(printf '{"session_id":"s-1","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$PWD")
  set +e
  out=$(printf '%s' "$payload" | timeout "$host_timeout" bash -c "$command" 2>/dev/null)
  got=$?
  set -e
}
mkfifo .gitmodules
stop_as_installed
rm .gitmodules
[ "$got" -ne 124 ] || fail "no answer within the host's timeout of ${host_timeout} s: the host kills the hook and the stop goes through"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the work open: $out"

# Honest: the work committed and pushed, the installed command lets the
# stop through within the same timeout.
mkdir -p tests
echo 'test "parses"' > tests/parser_test.sh
git add src.txt tests .claude/settings.json
git commit -qm "the parser"
git push -q
expect_run 0 md todo add "the parser"
expect_run 0 md todo done 1
expect_run 0 md check
stop_as_installed
[ "$got" -eq 0 ] || fail "the honest stop got no answer in time (exit $got)"
[ "$(hook_decision)" != "block" ] || fail "the honest stop was blocked: $out"
