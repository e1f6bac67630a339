# feature tracks origin/feature, which stood at origin/main's commit at the
# start. The task deletes the branch on origin (the upstream is gone), then
# makes the ref again at its start value without origin holding it: `git
# fetch origin main:refs/remotes/origin/feature`, `git update-ref`, or the
# ref file written by hand. Holding its start value, it read alive. Deleting
# a ref deletes its reflog: a ref the start saw whose newest reflog line is
# not the start's must show a fetch or push of its remote, else the
# upstream is still gone. A branch really pushed again is alive; a reflog
# emptied by `git reflog expire` (as git gc does) is no rewrite.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git branch feature
git push -q -u origin feature
expect_run 0 md start "a feature"
expect_answer upstream-alive "pass" "none is gone"

git push -q origin --delete feature
expect_open upstream-alive "feature" "owed"

git fetch -q origin main:refs/remotes/origin/feature
[ "$(git rev-parse origin/feature)" = "$(git rev-parse main)" ] || fail "setup: not at its start value"
expect_open upstream-alive "origin/feature.*deleted or rewritten" "owed"
expect_run 10 md check

git update-ref -d refs/remotes/origin/feature
git update-ref refs/remotes/origin/feature main
expect_open upstream-alive "origin/feature.*deleted or rewritten" "owed"

git update-ref -d refs/remotes/origin/feature
git rev-parse main > .git/refs/remotes/origin/feature
expect_open upstream-alive "origin/feature.*deleted or rewritten" "owed"

# Pushed again, origin holds it: alive.
git update-ref -d refs/remotes/origin/feature
git push -q origin feature
expect_answer upstream-alive "pass" "none is gone"

# An emptied reflog is what git gc leaves of an old one: still alive.
git reflog expire --expire=now --all
expect_answer upstream-alive "pass" "none is gone"
