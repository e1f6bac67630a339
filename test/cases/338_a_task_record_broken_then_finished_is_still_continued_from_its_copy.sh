# `echo x > .ai/local/state/task.json` makes the task record unreadable, and
# the stop hook's remedy for that is `majordomus finish --outcome failed`,
# which archived what the broken file held and no record: the next `start`
# found no task left open, inherited the task's unpushed branch, and the
# next check said `done: complete`. The copy of the record in the git
# directory is the task's whole record: finishing a broken record archives
# it, so a start after it continues the task (test/cases/335).
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
commit_a_feature side
git checkout -q main
expect_run 10 md check
expect_contains "pushed=owed"

echo x > .ai/local/state/task.json
expect_run 0 md finish --outcome failed
expect_run 0 md start "another go"
started=$out
expect_run 0 md todo add "look again"
expect_run 0 md todo done 1
expect_run 10 md check
expect_open pushed "side"
expect_also nothing-accumulated "side"
case "$started" in *"continues"*) ;; *) out=$started; fail "start does not say it continues the task whose record broke" ;; esac
