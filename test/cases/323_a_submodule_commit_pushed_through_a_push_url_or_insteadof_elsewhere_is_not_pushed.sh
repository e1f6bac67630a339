# The task commits inside the submodule lib and pushes the superproject;
# then, inside lib, sends `git push origin` elsewhere without touching
# origin's url: `git -C lib config remote.origin.pushurl /tmp/mine.git`,
# or `url./tmp/mine.git.insteadOf` the URL .gitmodules names. The push
# lands on this disk only but writes "update by push" on lib's
# origin/main, whose url is still the one .gitmodules names, so pushed
# passed. The URLs compared are those git fetches from and pushes to.
source "$(dirname "$0")/../lib.sh"

export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
git init -q --bare -b main "$case_root/lib.git"
git clone -q "$case_root/lib.git" "$case_root/seed" 2> /dev/null
(cd "$case_root/seed" && git commit -q --allow-empty -m lib && git push -q origin HEAD:main)
echo base > README
exempt_forge
commit_all "initial"
with_origin
git submodule --quiet add ../lib.git lib
commit_all "lib"
git push -q origin main
expect_run 0 md start "use lib's new function"

(cd lib && echo 'pub fn new() {}' > new.rs && git add new.rs && git commit -qm "lib: new")
mkdir -p tests
echo t > tests/new.rs
git add lib tests
git commit -qm "use lib's new function"
git push -q origin main
expect_open pushed "lib" "owed"

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
