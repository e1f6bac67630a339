# The superproject holds lib, which holds inner. The task commits in
# lib/inner, records it in lib and pushes lib, then records lib in the
# superproject and pushes that: inner's commit is on this disk only, and
# nobody can check out the superproject recursively. pushed asked only of
# the superproject's own submodules and passed. A submodule's submodules
# are asked the same: owed naming lib/inner, until inner is pushed.
source "$(dirname "$0")/../lib.sh" || exit 2

nested_lib_remotes
echo base > README
exempt_forge
commit_all "initial"
with_origin
git submodule --quiet add "$case_root/lib.git" lib
git submodule --quiet update --init --recursive
commit_all "lib"
git push -q origin main
expect_run 0 md start "use inner's new function"

(cd lib/inner && echo 'pub fn new() {}' > new.rs && git add new.rs && git commit -qm "inner: new")
(cd lib && git add inner && git commit -qm "use inner's new function" && git push -q origin HEAD:main)
mkdir -p tests
echo t > tests/new.rs
git add lib tests
git commit -qm "use lib's new commit"
git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: the working tree is not clean"
expect_open pushed "lib/inner" "owed"
expect_run 10 md check

git -C lib/inner push -q origin HEAD:main
expect_answer pushed "pass" "lib/inner"
expect_run 0 md check
