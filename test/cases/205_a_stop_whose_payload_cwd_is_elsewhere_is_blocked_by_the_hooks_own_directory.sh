# README, "The stop": the directory the hook runs in is one of the places a
# stop concerns. The host runs the hook in the project while the payload's
# cwd is another repository with no task (a scratch clone under /tmp): the
# project's open task blocks the stop.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo hello > README
commit_all "initial"
expect_run 0 md start "a greeting"
echo 'fn greet() {}' > greet.rs
expect_run 10 md check

git init -q -b main "$case_root/other"
stop_hook "$case_root/other"
[ "$(hook_decision)" = block ] || fail "a stop whose payload cwd is another repository went through while the hook's own directory holds an open task"
