# A task scoped to src and tests commits a change to docs/ on a branch of
# its own, pushes that branch straight onto the trunk (`git push origin
# docs:main`), goes back to main and deletes the branch. HEAD, behind the
# trunk, holds none of it, so the change set since the start (HEAD, the
# index, the working tree) was all in scope, and the task read done with a
# change outside its scope landed. The commits this worktree made since
# the start that HEAD does not reach are read too, where the trunk holds
# what they changed: scoped is refused naming docs/x.md, also when the
# change reached the trunk as a squash merge.
source "$(dirname "$0")/../lib.sh" || exit 2

start_src_task_beside_docs
expect_run 0 md todo add "the src work"
expect_run 0 md todo done 1
push_a_feature
git checkout -q -b docs
echo changed > docs/x.md
commit_all "docs too"
git push -q origin docs:main
git checkout -q main
git branch -q -D docs
expect_open scoped "docs/x.md" "refused"
expect_run 10 md check

# Taken in, within the scope grown for it: scoped passes.
expect_run 0 md scope add docs
expect_answer scoped "pass" "inside the scope"

# An experiment outside the scope that never landed is not judged.
git checkout -q -b spike
echo spike > README
commit_all "spike"
git checkout -q main
git branch -q -D spike
expect_answer scoped "pass" "inside the scope"

# Squash-merged: the change reached the trunk as another commit.
cd "$case_root"
rm -rf repo origin.git
git init -q -b main repo
cd repo
start_src_task_beside_docs
push_a_feature
git checkout -q -b docs
echo changed > docs/x.md
commit_all "docs too"
git push -q origin docs
git clone -q "$case_root/origin.git" "$case_root/forge"
(cd "$case_root/forge" && git merge -q --squash origin/docs && git commit -qm "docs (squashed)" && git push -q origin main && git push -q origin --delete docs)
git checkout -q main
git branch -q -D docs
git fetch -q --prune origin
expect_open scoped "docs/x.md" "refused"
