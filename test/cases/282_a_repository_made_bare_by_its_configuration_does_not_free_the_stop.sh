# `git config core.bare true` in a working tree's repository makes git and
# libgit2 see no working tree: `check` refused to read it (exit 2) and
# the stop hook, finding no repository with a working tree, let the stop
# through in silence while the task's edit was still uncommitted. A git
# directory named `.git` in a working tree is that working tree's, whatever
# core.bare says: its task is unmeasured, the questions are unknown naming
# the setting, and the stop is blocked (as for test/cases/261).
source "$(dirname "$0")/../lib.sh" || exit 2

echo "one" > a.txt
commit_all "initial"
md start "the parser" >/dev/null
echo "two" >> a.txt
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "setup: the task's own edit does not block"

git config core.bare true
out=$(printf '{"session_id":"s-2","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$PWD" |
  timeout 20 "$MAJORDOMUS" hook stop 2>&1) || fail "hook stop failed (exit $?)"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with core.bare set"
expect_contains "core.bare"
expect_run 10 md check
expect_contains "core.bare"
expect_not_contains "done: complete"

git config core.bare false
expect_open committed "a.txt" "owed"
