# Not in issue 10 (a new class; judgement, see README.md): `bg forget PID`
# withdraws a registration while the process still runs, and
# no-background-work passes. Forgetting is for a registration made by
# mistake: a process forgotten while it still runs keeps the question
# open, naming it.
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

echo base > README
commit_all "initial"
expect_run 0 md start "a"
sleep 30 &
pid=$!
trap 'kill $pid 2> /dev/null; rm -rf "$case_root"' EXIT
expect_run 0 md bg add "$pid" --what "the build"
expect_open no-background-work "$pid" "owed"
expect_run 0 md bg forget "$pid"
expect_open no-background-work "$pid|forg" "owed"
