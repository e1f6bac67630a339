# The task commits on a detached HEAD, moves a
# branch that existed at the start onto it (`git branch -f topic HEAD`),
# and goes back to main. HEAD's reflog shows it made the commit, and a
# local branch holds it: pushed is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_pushed_branch topic
git checkout -q --detach
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "topic work"
work=$(git rev-parse --short=12 HEAD)
git branch -f topic HEAD
git checkout -q main
expect_open pushed "topic|$work" "owed"
expect_run 10 md check
