# README, "The stop": the linked worktree lies outside the project
# (git worktree add ../elsewhere); its main worktree holds the open task,
# so a stop whose cwd is the linked worktree is blocked.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo hello > README
commit_all "initial"
expect_run 0 md start "a greeting"
echo 'fn greet() {}' > greet.rs
expect_run 10 md check

git worktree add -q "$case_root/elsewhere" -b elsewhere
cd "$case_root/elsewhere"
stop_hook "$case_root/elsewhere"
[ "$(hook_decision)" = block ] || fail "a stop from a linked worktree outside the project went through while the main worktree's task is open"
