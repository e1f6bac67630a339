#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# origin made from the project with `git clone --bare --shared` (or
# `--reference`): its objects/info/alternates leads into this repository's
# objects, so a push there sends no object this repository has. The task
# commits and pushes: origin's main names the commit, but only this
# repository holds it (remove this clone, as one does when the work is
# done, and origin's main leads nowhere). pushed and integrated passed,
# done: complete. A remote whose object store borrows from this one is
# now not evidence, as a remote that is this repository itself is not,
# with the way out that gives it a copy of its own.

echo base > README
exempt_forge
commit_all "initial"
git clone -q --bare --shared "$repo" "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
git fetch -q origin
git branch -q -u origin/main
git remote set-head origin main
expect_run 0 md start "a feature"
mkdir -p src tests && echo "fn f() {}" > src/f.rs && echo "f" > tests/f_test.sh
commit_all "the feature"
git push -q origin main
work=$(git rev-parse HEAD)
# The fact: origin's own objects do not hold the work.
cp -r "$case_root/origin.git" "$case_root/copy.git"
rm "$case_root/copy.git/objects/info/alternates"
! git -C "$case_root/copy.git" cat-file -e "$work^{commit}" 2> /dev/null || fail "setup: origin holds the work itself"
expect_open pushed "the URL of origin is a repository that borrows its objects from this one"
expect_also pushed "repack -a -d"
expect_also integrated "borrows its objects from this one"
# The way out, as the evidence gives it: origin takes a copy of its own.
git -C "$case_root/origin.git" repack -q -a -d
rm "$case_root/origin.git/objects/info/alternates"
git -C "$case_root/origin.git" cat-file -e "$work^{commit}" || fail "origin lacks the work after the repack"
expect_answer pushed pass "on origin/main \(its upstream\)"
judge_answer integrated pass "reaches HEAD"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
