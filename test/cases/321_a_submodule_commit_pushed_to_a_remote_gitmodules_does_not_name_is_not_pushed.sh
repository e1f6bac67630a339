# The task commits inside the submodule lib and records the bump in the
# superproject, pushed; then, inside lib, adds a remote of its own on
# this disk and pushes there (`git -C lib remote add mine /tmp/mine.git;
# git -C lib push mine HEAD:main`), or re-points lib's origin there and
# fetches. The ref that push or fetch wrote read as lib's remote, so
# pushed passed while nobody cloning the superproject can fetch the
# commit. Only the remote .gitmodules names (here the relative ../lib.git,
# resolved against the superproject's origin) is evidence; the other is
# named.
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
