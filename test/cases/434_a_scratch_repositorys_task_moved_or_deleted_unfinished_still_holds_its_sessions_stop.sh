#!/usr/bin/env bash
# A task an agent's session started in a scratch repository inside the
# project holds that session's stop made from the project (case 365),
# through the note its start left around it. Moved away (`mv tmp/scratch
# tmp/scratch2`) or deleted with its work (`rm -rf`), unfinished, it held
# nothing: the note named a root with no record, read as finished. The
# note names its task now and `finish` removes it: a note whose repository
# is gone is a task left open, which holds that session's stop (not
# another's) until it is put back and finished, or the note removed.
source "$(dirname "$0")/../lib.sh" || exit 2

project_with_scratch_task
mv tmp/scratch tmp/scratch2
stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "the stop went through while the moved scratch task is unfinished"
expect_contains "scratch work"
expect_contains "no longer there"

# Another session's stop is not held by it.
stop_hook_of s-2 "$repo"
[ -z "$(hook_decision)" ] || fail "another session's stop was held by the scratch task"

# Put back and finished there: the stop goes through, the note is gone.
mv tmp/scratch2 tmp/scratch
expect_run 0 md -C tmp/scratch finish --outcome partial
stop_hook "$repo"
[ -z "$(hook_decision)" ] || fail "the stop was held after the scratch task was finished"
[ -z "$(ls .git/majordomus/nested 2>/dev/null)" ] || fail "finish left its note: $(ls .git/majordomus/nested)"

# Deleted with its work: held until the note is removed, as the remedy says.
rm -rf tmp/scratch
scratch_task tmp/scratch
rm -rf tmp/scratch
stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "the stop went through while the deleted scratch task is unfinished"
expect_contains "rm $repo/.git/majordomus/nested/"
rm .git/majordomus/nested/*.json
stop_hook "$repo"
[ -z "$(hook_decision)" ] || fail "the stop was held after the note was removed"
