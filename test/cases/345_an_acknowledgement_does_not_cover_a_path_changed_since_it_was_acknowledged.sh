# A peer's edit of README, uncommitted in a shared checkout, is
# acknowledged (`majordomus ack committed --why "a peer's edit"`); then the
# task writes its own work into that same file (and into a peer's
# acknowledged untracked notes) and never commits it. The acknowledgement
# was keyed to the paths alone, so both stayed exempt and the task read
# done. It is keyed to their content then too: a path changed since it was
# acknowledged is owed again, named as changed.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
push_a_feature
echo "a peer's line" >> README
echo "a peer's notes" > notes.md
expect_run 0 md ack committed --why "a peer's edit"
expect_run 0 md ack no-untracked --why "a peer's notes"
expect_run 0 md check
expect_contains "done: complete"

echo "the task's own work" >> README
echo "the task's own work" >> notes.md
expect_open committed "README.*changed since it was acknowledged" "owed"
expect_also no-untracked "notes.md.*changed since it was acknowledged" "owed"
expect_run 10 md check

# Acknowledged again, as it is now, it is covered again.
expect_run 0 md ack committed --why "a peer's edit, and more of it"
expect_answer committed "exempt" "README"
