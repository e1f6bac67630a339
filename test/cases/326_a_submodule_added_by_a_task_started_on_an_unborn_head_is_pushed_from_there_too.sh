# A task started in a new repository, before its first commit (an unborn
# HEAD), adds a submodule lib, commits inside lib, records it and pushes
# the superproject: lib's commit is on this disk only. With no start
# commit to compare with, no submodule was asked of, and the task read
# done. Every submodule HEAD records is new since an unborn start: owed
# naming lib, until lib's commit is pushed.
source "$(dirname "$0")/../lib.sh" || exit 2

export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
git init -q --bare -b main "$case_root/lib.git"
git clone -q "$case_root/lib.git" "$case_root/lib-seed" 2> /dev/null
(cd "$case_root/lib-seed" && git commit -q --allow-empty -m lib && git push -q origin HEAD:main)
git init -q --bare -b main "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
exempt_forge
expect_run 0 md start "a new project"
expect_run 0 md todo add "the project"
expect_run 0 md todo done 1

git submodule --quiet add "$case_root/lib.git" lib
(cd lib && echo 'pub fn new() {}' > new.rs && git add new.rs && git commit -qm "lib: new")
mkdir -p tests
echo t > tests/new.rs
git add -A
git commit -qm "the project, on lib's new commit"
git push -q -u origin main
[ -z "$(git status --porcelain)" ] || fail "setup: the working tree is not clean"
expect_open pushed "lib" "owed"
expect_run 10 md check

git -C lib push -q origin HEAD:main
expect_answer pushed "pass" "lib"
expect_run 0 md check
