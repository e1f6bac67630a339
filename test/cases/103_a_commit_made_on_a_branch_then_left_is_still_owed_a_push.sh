# A branch that existed at the start receives a commit of the
# task (made while checked out), then the worktree switches back to main.
# Asking only of HEAD would let pushed pass.
# Every commit this worktree's HEAD made since the start that a local
# branch still holds must be on a remote: pushed is owed, naming it.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_pushed_branch topic

git checkout -q topic
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "topic work"
work=$(git rev-parse --short=12 HEAD)
git checkout -q main
expect_open pushed "topic|$work" "owed"
expect_run 10 md check
