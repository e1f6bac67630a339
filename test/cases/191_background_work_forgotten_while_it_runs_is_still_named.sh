# README, "Bookkeeping, acknowledgements, the score and the sweep": `bg forget PID` withdrew a registration
# while the process still ran, and no-background-work passed. Decided:
# forgetting a process that still runs is refused (exit 2, nothing
# recorded) unless `--why REASON` says why it is not the task's to end;
# then, like an acknowledgement, no-background-work is exempt for it,
# naming it and showing the reason.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
expect_run 0 md start "a"
sleep 30 &
pid=$!
trap 'kill $pid 2> /dev/null || true; rm -rf "$case_root"' EXIT
expect_run 0 md bg add "$pid" --what "the build"
expect_open no-background-work "$pid" "owed"
expect_run 2 md bg forget "$pid"
expect_contains "--why"
expect_open no-background-work "$pid" "owed"
expect_run 2 md bg forget "$pid" --why " "
expect_run 0 md bg forget "$pid" --why "the docs server the user asked to keep"
expect_answer no-background-work "exempt" "$pid.*the docs server the user asked to keep"
expect_run 10 md check
expect_not_contains "no-background-work="
# Once it has ended, forgetting needs no reason.
kill "$pid"
wait "$pid" 2> /dev/null || true
expect_answer no-background-work "pass" "ended"
