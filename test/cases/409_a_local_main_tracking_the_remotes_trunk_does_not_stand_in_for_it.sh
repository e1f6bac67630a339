#!/usr/bin/env bash
# The trunk is the remote's default branch, else its main or master, else
# a local main or master. A project whose trunk on origin has another name
# (`trunk`, `develop`) and no `origin/HEAD` (set up with `git remote add`,
# not cloned) had its local main, which tracks origin/trunk, taken for the
# trunk: a branch the task moves with one `git merge`. The work merged into
# main here and pushed only to a branch origin held at the start
# (`git push origin main:release`) read `done: complete` while origin's
# trunk held none of it. A local main or master that tracks a branch of a
# remote stands for that branch: the trunk is its upstream.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
git init -q --bare -b trunk "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
git push -q origin main:trunk main:release
git fetch -q origin
git branch -q -u origin/trunk main
expect_run 0 md start "a feature"

git checkout -q -b feat
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "feature"
git checkout -q main
git merge -q --ff-only feat
git branch -q -d feat
git push -q origin main:release
expect_open integrated "origin/trunk" owed
expect_run 10 md check

git push -q origin main:trunk
expect_run 0 md check
