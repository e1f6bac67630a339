# The agent makes a scratch repository inside the project, in a directory
# the project ignores (`git init tmp/scratch`), starts its task there and
# leaves work in it, then stops from the project. The stop asked the
# project (no task) and nothing below it: it went through, silently. A
# start made in an agent's session leaves a note in every repository
# around its own, and the session's stop made there asks that task too.
source "$(dirname "$0")/../lib.sh" || exit 2

project_with_scratch_task
expect_run 10 md -C tmp/scratch check

stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop from the project to be blocked while this session's task in tmp/scratch is open"
expect_contains "scratch work"
expect_contains "tmp/scratch"

# Another session's stop is not held by it.
stop_hook_of s-2 "$repo"
[ -z "$(hook_decision)" ] || fail "expected another session's stop not to be held by the scratch task"

# Ended there, the stop goes through.
expect_run 0 md -C tmp/scratch finish --outcome partial
stop_hook "$repo"
[ -z "$(hook_decision)" ] || fail "expected the stop to go through once the scratch task was finished"
