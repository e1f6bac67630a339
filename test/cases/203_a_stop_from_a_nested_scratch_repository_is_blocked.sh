# README, "The stop": the agent made a scratch repository inside the project
# (git init scratch) and stands in it: the project's open task still
# blocks the stop.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo 'scratch/' > .gitignore
echo hello > README
commit_all "initial"
expect_run 0 md start "a greeting"
echo 'fn greet() {}' > greet.rs
expect_run 10 md check

git init -q -b main scratch
stop_hook "$repo/scratch"
[ "$(hook_decision)" = block ] || fail "a stop from a nested scratch repository went through while the project's task is open"
(cd scratch && stop_hook "$repo/scratch")
[ "$(hook_decision)" = block ] || fail "a stop run inside the scratch repository went through"
