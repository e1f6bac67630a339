# The task commits on a new branch, pushes it (`git push -u origin feat`),
# goes back to main and deletes the local branch: HEAD is the start
# commit, which the trunk reaches, so integrated passed with the work on
# origin/feat only, and with a todo declared and done the task read done.
# A remote-tracking ref moved or made since the start that holds commits
# this worktree made since, which neither HEAD nor the trunk holds, is
# asked of too: integrated is owed naming it, until the trunk holds the
# work or the branch is deleted on the remote.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1
commit_a_feature feat
git push -q -u origin feat
git checkout -q main
git branch -q -D feat
expect_open integrated "origin/feat" "owed"
expect_advice integrated
expect_run 10 md check

# Squash-merged into the trunk and pushed: integrated.
git merge -q --squash origin/feat
git commit -qm "feature (squashed)"
git push -q origin main
expect_answer integrated "pass" "reaches HEAD"

# Work pushed aside and then deleted on the remote is nothing owed.
git checkout -q -b spike
echo s > src/s.rs
commit_all "spike"
git push -q origin spike
git checkout -q main
git branch -q -D spike
expect_open integrated "origin/spike" "owed"
git push -q origin --delete spike
expect_answer integrated "pass" "reaches HEAD"

# A colleague's branch fetched and looked at is not this worktree's work.
git clone -q "$case_root/origin.git" "$case_root/other"
(cd "$case_root/other" && echo c > c.rs && git add c.rs && git commit -qm c && git push -q origin HEAD:colleague)
git fetch -q origin
git checkout -q origin/colleague
git checkout -q main
expect_answer integrated "pass" "reaches HEAD"
