# A commit parked under a remote-tracking ref written by hand (`git
# update-ref refs/remotes/origin/wip HEAD`) before a `git reset --hard`:
# the ref is not evidence of origin (no fetch or push wrote it), and 322's
# reading of refs written since the start leaves refs/remotes/ to the
# evidence, so nothing read the commit and the task read done with its
# work on no remote. The same with a real push that no reflog line shows:
# `core.logAllRefUpdates` turned off, or every reflog expired after it
# (`git reflog expire --expire=now --all`), and the branch deleted here.
# A remote-tracking ref that is not evidence keeps commits as any other
# ref does: owed naming it.
source "$(dirname "$0")/../lib.sh"

start_on_origin
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1
commit_a_feature
git update-ref refs/remotes/origin/wip HEAD
git reset -q --hard HEAD~1
expect_open pushed "origin/wip" "owed"
expect_run 10 md check
git update-ref -d refs/remotes/origin/wip
expect_answer pushed "pass" "origin/main"

# A real push with reflogs off, the branch then deleted here.
git config core.logAllRefUpdates false
git checkout -q -b feat
mkdir -p src && echo f > src/f.rs
commit_all "feat"
git push -q -u origin feat
git checkout -q main
git branch -q -D feat
expect_open pushed "origin/feat" "owed"
expect_run 10 md check
git config --unset core.logAllRefUpdates

# A real push, every reflog then expired (HEAD's too: nothing says whose
# the work is), the branch deleted here.
git checkout -q -b feat2
mkdir -p src && echo b > src/b.rs
commit_all "more"
git push -q -u origin feat2
git checkout -q main
git branch -q -D feat2
git reflog expire --expire=now --all
expect_open pushed "origin/feat2" "owed"
expect_run 10 md check

# A colleague's branch fetched is theirs, whatever this worktree did.
git push -q origin --delete feat feat2
git fetch -q --prune origin
git clone -q "$case_root/origin.git" "$case_root/other"
(cd "$case_root/other" && echo c > c.rs && git add c.rs && git commit -qm c && git push -q origin HEAD:colleague)
git fetch -q origin
expect_answer pushed "pass" "origin/main"

# Work pushed only to a remote added since the start (never evidence),
# HEAD then taken back.
git init -q --bare "$case_root/backup.git"
git remote add backup "$case_root/backup.git"
mkdir -p src && echo w > src/w.rs
commit_all "wip"
git push -q backup HEAD:wip
git reset -q --hard HEAD~1
expect_open pushed "backup/wip" "owed"
