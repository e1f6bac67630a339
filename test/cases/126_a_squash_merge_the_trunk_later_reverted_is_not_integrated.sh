# The feature was squash-merged into the trunk, and the trunk
# later reverted the squash: an earlier trunk commit held HEAD's changes,
# which alone would make integrated pass. The trunk no longer holds them: owed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
mkdir -p src
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
git checkout -q -b feature
echo "fn a() { 1 }" > src/lib.rs
commit_all "feature"
git push -q -u origin feature
git checkout -q main
git merge -q --squash feature
git commit -q -m "feature, squashed"
git push -q origin main
git checkout -q feature
expect_answer integrated "pass" "squash"

git checkout -q main
git revert --no-edit HEAD > /dev/null
git push -q origin main
git checkout -q feature
expect_open integrated "src/lib.rs|revert" "owed"
expect_run 10 md check
