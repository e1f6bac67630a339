# A conflicted merge leaves `settled` owed, naming the operation and paths,
# until it is concluded.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "base" > README
commit_all "initial"
git checkout -q -b side
echo "side" > README
commit_all "side"
git checkout -q main
echo "main" > README
commit_all "main"

expect_run 0 md start "merge side"
expect_run 1 git merge -q side
expect_run 10 md check
expect_contains "settled=owed"
expect_contains "A merge is in progress"
expect_contains "1 path is conflicted: README"
expect_contains "git merge --continue"

echo "both" > README
git add README
git commit -q --no-edit
expect_run 10 md check
expect_not_contains "settled="
