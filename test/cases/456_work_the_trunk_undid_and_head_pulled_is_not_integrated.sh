#!/usr/bin/env bash
# The class of case 437 with the trunk pulled: the work pushed, then
# reverted on the trunk by a colleague (`git revert`), or its branch merged
# with `git merge -s ours`, and HEAD pulled to the trunk's tip. HEAD's tree
# is then the start's, so HEAD's change since says nothing was undone; the
# commits the task made say what its work was: a path one of them changed,
# which no commit made here put back, held by the trunk's tip as the start
# had it, is not integrated. The task undoing its own change is no undoing.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git clone -q "$case_root/origin.git" "$case_root/colleague"
colleague() { (cd "$case_root/colleague" && git -c user.email=col@example.com -c user.name=Col "$@"); }
expect_run 0 md start "a feature"
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "feature"
git push -q origin main
colleague pull -q
colleague revert --no-edit HEAD > /dev/null
colleague push -q origin main
git pull -q --ff-only
expect_open integrated "src/a.rs" owed

# Merged with `-s ours` from a branch, pulled, the branch deleted.
git checkout -q -b feat
mkdir -p src tests
echo b > src/b.rs
echo u > tests/b.rs
commit_all "another feature"
git push -q -u origin feat
colleague fetch -q
colleague pull -q
colleague merge -q -s ours --no-edit origin/feat
colleague push -q origin main
colleague push -q origin --delete feat
git switch -q main
git pull -q --ff-only --prune
git branch -q -D feat
expect_open integrated "src/b.rs" owed

# The task's own revert of its own change is no work undone by the trunk.
cd "$case_root"
git init -q -b main own
cd own
echo base > README
exempt_forge
commit_all "initial"
git init -q --bare -b main "$case_root/own.git"
git remote add origin "$case_root/own.git"
git push -q -u origin main
git remote set-head origin main
expect_run 0 md start "a try"
echo c > c.rs
commit_all "a try"
git revert --no-edit HEAD > /dev/null
git push -q origin main
expect_answer integrated pass ""
