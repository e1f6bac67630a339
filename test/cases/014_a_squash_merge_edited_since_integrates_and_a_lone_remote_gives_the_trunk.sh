# The trunk comes from the only remote even when it is not `origin`, and a
# squash merge the trunk edited since still counts as integrated.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "1" > a.txt
commit_all "initial"
git init -q --bare -b main "$case_root/gh.git"
git remote add gh "$case_root/gh.git"
git push -q -u gh main
git remote set-head gh main

expect_run 0 md start "a feature"
git checkout -q -b feature
echo "3" > a.txt
mkdir -p tests
echo "t" > tests/a.rs
commit_all "a=3"
git push -q -u gh feature

expect_run 10 md check --json
expect_contains '"trunk": "refs/remotes/gh/main"'
expect_contains 'gh is the only remote'

# Squash-merged into the trunk, which then edits the same file.
git checkout -q main
git merge -q --squash feature
git commit -q -m "feature, squashed"
echo "4" > a.txt
commit_all "a=4 on the trunk"
git push -q gh main
git checkout -q feature
expect_run 10 md check
expect_not_contains "integrated="
expect_run 10 md check --json
expect_contains '(1 commit before its tip) held all 2 paths HEAD changed'
