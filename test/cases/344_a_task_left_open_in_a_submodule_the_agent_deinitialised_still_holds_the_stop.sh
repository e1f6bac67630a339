# The task is started inside a submodule (`lib`), its work committed there
# and not pushed; then `git submodule deinit -f lib` clears lib's working
# tree, the task record with it (its copy stays in the superproject's
# `.git/modules/lib/majordomus/`). The stop from the superproject found no
# task anywhere and went through, silently, the task never finished. It
# is blocked, naming the task and the submodule, until lib's working tree
# is put back and the task ended there.
source "$(dirname "$0")/../lib.sh" || exit 2

pushed_project --libsrc
task_left_in_deinit_lib

stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop to be blocked while the task left in lib is unfinished"
expect_contains "the lib work"
expect_contains "submodule lib"

# Its working tree put back, the record is still gone: blocked from the
# superproject, until the task is ended there.
git -c protocol.file.allow=always submodule update -q --init lib
stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop to be blocked while lib's task is not ended"
expect_run 0 md -C lib finish --outcome partial
stop_hook "$repo"
[ -z "$(hook_decision)" ] || fail "expected the stop to go through once lib's task was finished"
