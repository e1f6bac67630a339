# A commit made on a detached HEAD and kept by `git tag wip` is the task's
# by HEAD's reflog (test/cases/285); `git reflog expire --expire=now --all`
# empties that reflog, the tag's commit was then nobody's, and with a todo
# declared and done the task read done. HEAD's reflog rewritten since the
# start (the start's mark of its end is gone) can no longer say whose a
# tag's new commit is: every tag holding a commit no start ref nor remote
# holds is owed a push, naming why.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
expect_run 0 md todo add "write b"
expect_run 0 md todo done 1
expect_run 0 md check

git checkout -q --detach
mkdir -p tests
echo more > tests/b.rs
git add tests/b.rs
git commit -qm "more work"
git tag wip
git checkout -q main
git reflog expire --expire=now --all
expect_open pushed "tag wip.*reflog" "owed"
expect_run 10 md check

# Pushed on a branch, it is pushed.
git push -q origin wip:refs/heads/more
expect_answer pushed "pass" "origin/main"
