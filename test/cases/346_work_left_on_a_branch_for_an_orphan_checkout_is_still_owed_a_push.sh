# A task commits its work on main, never pushes it, and then starts a
# branch of no history (`git checkout --orphan gh-pages`, the way a
# documentation site is begun): HEAD is unborn. `pushed` answered "HEAD has
# no commit yet, so there is nothing to push" and `integrated` "nothing to
# integrate", whatever the branches held: in a new repository the task read
# done with its whole work on this disk only. An unborn HEAD has nothing of
# its own to push, but the work this worktree left on branches (and on
# remote-tracking refs off the trunk) is asked of as ever.
source "$(dirname "$0")/../lib.sh" || exit 2

git init -q --bare -b main "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
exempt_forge
expect_run 0 md start "a new project"
expect_run 0 md todo add "the project"
expect_run 0 md todo done 1
commit_a_feature
# The site's branch begun: nothing of main's tracked, the work's files
# cleared away, the policy left untracked as it was at the start.
git checkout -q --orphan gh-pages
git rm -rq --cached .
rm -r src tests
expect_open pushed "main" "owed"
expect_run 10 md check
git push -q -u origin main
expect_answer pushed "exempt" "no commit yet"

# In a repository with a trunk: the work pushed to a branch of its own,
# that branch deleted here, and HEAD made unborn. The trunk holds none of
# it: integrated is owed naming origin/feat, not exempt.
cd "$case_root"
rm -rf repo origin.git
git init -q -b main repo
cd repo
start_on_origin
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1
commit_a_feature feat
git push -q -u origin feat
git checkout -q --orphan gh-pages
git branch -q -D feat
expect_open integrated "origin/feat" "owed"
expect_answer pushed "exempt" "no commit yet"
