# The task commits inside the submodule lib and pushes the superproject;
# then, inside lib, sends `git push origin` elsewhere without touching
# origin's url: `git -C lib config remote.origin.pushurl /tmp/mine.git`,
# or `url./tmp/mine.git.insteadOf` the URL .gitmodules names. The push
# lands on this disk only but writes "update by push" on lib's
# origin/main, whose url is still the one .gitmodules names, so pushed
# passed. The URLs compared are those git fetches from and pushes to.
source "$(dirname "$0")/../lib.sh" || exit 2

lib_bump_pushed_without_lib

git init -q --bare "$case_root/mine.git"
git -C lib config remote.origin.pushurl "$case_root/mine.git"
git -C lib push -q origin HEAD:main
expect_open pushed "lib.*origin/main.*gitmodules" "owed"
expect_run 10 md check

git -C lib config --unset remote.origin.pushurl
git -C lib update-ref -d refs/remotes/origin/main
git -C lib config "url.$case_root/mine.git.insteadOf" "$case_root/lib.git"
git -C lib push -q origin HEAD:main
expect_open pushed "lib.*origin/main.*gitmodules" "owed"
expect_run 10 md check

# Pushed where .gitmodules says, it is pushed.
git -C lib config --unset "url.$case_root/mine.git.insteadOf"
git -C lib push -q origin HEAD:main
expect_answer pushed "pass" "lib"
expect_run 0 md check
