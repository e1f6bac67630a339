# Issue 10 §6: a file untracked at the start (inherited) that the task
# fills with its own work and never commits: no-untracked and committed
# pass. The snapshot holds content ids: inherited means unchanged since the
# start, so no-untracked is owed, naming it.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo base > README
commit_all "initial"
echo "scratch notes" > notes.rs
expect_run 0 md start "a"
expect_contains "1 untracked"
echo "pub fn the_whole_feature() {}" > notes.rs
expect_open no-untracked "notes.rs" "owed"
expect_run 10 md check
