# README, "The stop": the host sets CLAUDE_PROJECT_DIR; the payload's cwd and the
# hook's own directory are outside any repository (the agent cd'ed to
# /tmp): the project's open task blocks the stop.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo hello > README
commit_all "initial"
expect_run 0 md start "a greeting"
echo 'fn greet() {}' > greet.rs
expect_run 10 md check

mkdir -p "$case_root/outside"
cd "$case_root/outside"
CLAUDE_PROJECT_DIR="$repo" stop_hook "$case_root/outside"
[ "$(hook_decision)" = block ] || fail "with CLAUDE_PROJECT_DIR naming the project, a stop from outside went through"
