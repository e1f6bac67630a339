#!/usr/bin/env bash
# The superproject holds lib, which holds inner; the task adds a second
# submodule, vendor, whose remote has a release tag on a commit no branch
# of it holds. Adding vendor is ordinary: its clone's branch and tags are
# its remote's, and the task is complete. Then the task leaves a commit on
# a branch of lib/inner, and one on a branch of vendor, each put back on
# the commit recorded for it: both passed. A submodule's submodules are
# read as deep as pushed follows them, and a submodule checked out since
# the start holds nothing inherited: owed, naming lib/inner and vendor.
source "$(dirname "$0")/../lib.sh" || exit 2

nested_lib_remotes
git init -q --bare -b main "$case_root/vendor.git"
git clone -q "$case_root/vendor.git" "$case_root/vendor-seed" 2> /dev/null
(
  cd "$case_root/vendor-seed"
  git commit -q --allow-empty -m vendor
  git push -q origin HEAD:main
  git switch -q --detach
  git commit -q --allow-empty -m "release 1"
  git tag -a -m "release 1" v1
  git push -q origin v1
)
echo base > README
exempt_forge
commit_all "initial"
with_origin
git submodule --quiet add "$case_root/lib.git" lib
git submodule --quiet update --init --recursive
commit_all "lib"
git push -q origin main
expect_run 0 md start "vendor a library"

git submodule --quiet add "$case_root/vendor.git" vendor
git -C vendor tag --list | grep -qx v1 || fail "setup: vendor's clone has no tag v1"
mkdir -p tests
echo t > tests/new.rs
commit_all "vendor a library"
git push -q origin main
expect_answer pushed "pass" "."
expect_also nothing-accumulated "." "pass"
expect_run 0 md check

(
  cd lib/inner
  git switch -q -c helper
  git commit -q --allow-empty -m "inner helper"
  git switch -q --detach "$(git -C .. rev-parse HEAD:inner)"
)
(
  cd vendor
  git switch -q -c patch
  git commit -q --allow-empty -m "vendor patch"
  git switch -q main
)
[ -z "$(git status --porcelain)" ] || fail "setup: the working tree is not clean"
[ -z "$(git -C lib status --porcelain)" ] || fail "setup: lib's working tree is not clean"
expect_open pushed "submodule lib/inner: branch helper holds 1 commit no remote of lib/inner holds" "owed"
expect_also pushed "submodule vendor: branch patch holds 1 commit no remote of vendor holds \(vendor was not checked out at the start\)" "owed"
expect_also nothing-accumulated "branch helper in the submodule lib/inner" "owed"
expect_also nothing-accumulated "branch patch in the submodule vendor" "owed"
expect_run 10 md check
