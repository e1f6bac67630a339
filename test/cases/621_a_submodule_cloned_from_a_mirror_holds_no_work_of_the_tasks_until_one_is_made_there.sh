#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A project whose `.gitmodules` names its submodule on a host across a
# network (git's own sha1collisiondetection, on github.com), cloned where
# that host is not reached: the clone's configuration points the submodule
# at a mirror on this machine (`git config submodule.lib.url MIRROR`, as
# git documents), whose main has moved on past the commit the project
# records. The task runs `git submodule update --init` to build, fixes the
# project and pushes. The clone made lib's main at the mirror's tip, and
# pushed was owed for good ("branch main holds 1 commit no remote of lib
# holds"), though origin there holds it and nothing was made in lib: only
# the remote `.gitmodules` names was read as holding anything. What a
# submodule's clone brought is not the task's; a commit made there since
# still is.

export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
git init -q --bare -b main "$case_root/lib.git"
git clone -q "$case_root/lib.git" "$case_root/seed" 2> /dev/null
(cd "$case_root/seed" && git commit -q --allow-empty -m "lib" && git push -q origin HEAD:main)
echo base > README
exempt_forge
commit_all "initial"
with_origin
git submodule --quiet add "$case_root/lib.git" lib
git config -f .gitmodules submodule.lib.url https://github.invalid/example/lib.git
commit_all "lib"
git push -q origin main
# The mirror's main moves on past the commit recorded here.
(cd "$case_root/seed" && git commit -q --allow-empty -m "lib moved on" && git push -q origin HEAD:main)

git clone -q "$case_root/origin.git" "$case_root/work"
cd "$case_root/work"
git config submodule.lib.url "$case_root/lib.git"
expect_run 0 md start "fix the parser"
git submodule --quiet update --init lib
[ "$(git -C lib rev-parse main)" = "$(git -C lib rev-parse origin/main)" ] || fail "setup: lib's main is not the mirror's"
[ "$(git -C lib rev-parse main)" != "$(git -C lib rev-parse HEAD)" ] || fail "setup: the mirror did not move on"
mkdir -p src tests
echo fixed > src/parser.rs
echo 'assert fixed' > tests/parser.rs
commit_all "parser: fixed"
git push -q origin main

expect_answer pushed pass "origin/main"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"

# A commit made on lib's main since is the task's: owed, named.
(cd lib && git switch -q main && echo w > w.rs && git add w.rs && git commit -qm "lib: work")
expect_open pushed "submodule lib: branch main holds 1 commit no remote of lib holds" owed
# Pushed to the remote .gitmodules names it would be held; taken off, it is
# the clone's again.
git -C lib reset -q --hard origin/main
expect_answer pushed pass "origin/main"
