# README, "The stop": the payload's cwd a plain subdirectory of the
# project (no repository of its own) finds the task.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src/deep
echo 'fn a() {}' > src/deep/lib.rs
commit_all "initial"
expect_run 0 md start "a"
echo 'fn greet() {}' > greet.rs
mkdir -p "$case_root/outside"
cd "$case_root/outside"
stop_hook "$repo/src/deep"
[ "$(hook_decision)" = block ] || fail "a stop from src/deep went through"
