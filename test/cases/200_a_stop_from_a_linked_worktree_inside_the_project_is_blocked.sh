# README, "The stop": the Stop payload's cwd is a linked worktree inside the
# project (agents make them, e.g. .worktrees/x) while the task in the
# project is open: the stop is blocked, the reason naming the project's
# open questions.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo '.worktrees/' > .gitignore
echo hello > README
commit_all "initial"
expect_run 0 md start "a greeting"
echo 'fn greet() {}' > greet.rs
expect_run 10 md check

git worktree add -q .worktrees/x -b x
stop_hook "$repo/.worktrees/x"
[ "$(hook_decision)" = block ] || fail "a stop from .worktrees/x went through while the project's task is open"
case "$out" in *greet.rs*) ;; *) fail "the block does not name the project's open question" ;; esac
# From the linked worktree as the hook's own directory too.
(cd .worktrees/x && stop_hook "$repo/.worktrees/x")
[ "$(hook_decision)" = block ] || fail "a stop run inside .worktrees/x went through"
