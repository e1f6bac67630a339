# HEAD's reflog says which commits this worktree made since the start, and
# it was read by time: with GIT_COMMITTER_DATE in the past, the lines of a
# detached commit kept by `git tag wip` (and of a checkout back to main)
# are dated before the start, so the commit was nobody's and pushed
# passed with it on no remote. The start marks where HEAD's reflog ended:
# what was appended since is the task's, whatever its lines say the time was.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
push_a_feature
expect_answer pushed "pass" "origin/main"

export GIT_COMMITTER_DATE="2001-01-01T00:00:00Z"
git checkout -q --detach
echo more > tests/b.rs
git add tests/b.rs
git commit -qm "more work"
git tag wip
git checkout -q main
unset GIT_COMMITTER_DATE
expect_open pushed "tag wip" "owed"
expect_run 10 md check

# Pushed on a branch, the work is pushed.
git push -q origin wip:refs/heads/more
expect_answer pushed "pass" "origin/main"
