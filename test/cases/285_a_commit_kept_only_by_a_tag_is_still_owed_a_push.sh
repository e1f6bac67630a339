# The task commits on a detached HEAD, keeps the commit with `git tag wip`,
# and goes back to its branch: HEAD holds none of it and no branch does,
# so pushed (asking of HEAD and the branches) passed with the work on no
# remote. A tag holding a commit HEAD's reflog names since the start is
# read like a branch made since: pushed is owed naming it, its remedy
# advice (a pushed tag moves no remote-tracking ref).
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
push_a_feature
expect_answer pushed "pass" "origin/main"

git checkout -q --detach
echo more > tests/b.rs
git add tests/b.rs
git commit -qm "more work"
git tag wip
work=$(git rev-parse HEAD)
git checkout -q main
expect_open pushed "tag wip" "owed"
expect_advice pushed
expect_run 10 md check

# Annotated and packed (as a clone or a gc leaves tags), peeled through
# packed-refs' record: still owed.
git tag -d wip > /dev/null
git tag -a -m "work in progress" wip2 "$work"
git pack-refs --all
expect_open pushed "tag wip2" "owed"
git tag -d wip2 > /dev/null
git tag wip "$work"

# Pushed on a branch, it is pushed; a tag on pushed work is nothing owed.
git push -q origin wip:refs/heads/more
expect_answer pushed "pass" "origin/main"
git tag -a -m "release" v1 main
expect_answer pushed "pass" "origin/main"
