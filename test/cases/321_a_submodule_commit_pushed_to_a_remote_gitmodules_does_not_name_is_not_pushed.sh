# The task commits inside the submodule lib and records the bump in the
# superproject, pushed; then, inside lib, adds a remote of its own on
# this disk and pushes there (`git -C lib remote add mine /tmp/mine.git;
# git -C lib push mine HEAD:main`), or re-points lib's origin there and
# fetches. The ref that push or fetch wrote read as lib's remote, so
# pushed passed while nobody cloning the superproject can fetch the
# commit. Only the remote .gitmodules names (here the relative ../lib.git,
# resolved against the superproject's origin) is evidence; the other is
# named.
source "$(dirname "$0")/../lib.sh" || exit 2

lib_bump_pushed_without_lib

git init -q --bare "$case_root/mine.git"
git -C lib remote add mine "$case_root/mine.git"
git -C lib push -q mine HEAD:main
expect_open pushed "lib.*mine/main.*gitmodules" "owed"
expect_run 10 md check

git -C lib remote remove mine
git -C lib remote set-url origin "$case_root/mine.git"
git -C lib fetch -q origin
expect_open pushed "lib.*origin/main.*gitmodules" "owed"
expect_run 10 md check

# Pushed to the remote .gitmodules names, it is pushed.
git -C lib remote set-url origin "$case_root/lib.git"
git -C lib push -q origin HEAD:main
expect_answer pushed "pass" "lib"
expect_run 0 md check
