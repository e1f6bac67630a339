#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The submodule lib's remote, the one .gitmodules names (../lib.git), is a
# bare repository on this machine in git's reftable ref format, which
# libgit2 cannot open. The task commits in lib, pushes it there (`git -C
# lib push origin HEAD:main`), and bumps and pushes the superproject:
# lib.git holds the commit, yet pushed was owed, "only lib's origin/main
# holds it, not the remote .gitmodules names", its remedy a push that
# changes nothing. A remote there majordomus cannot read is now unknown,
# naming its format and the way to have it read.

export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
git init -q --bare -b main --ref-format=reftable "$case_root/lib.git"
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
(cd lib && echo 'pub fn new() {}' > new.rs && git add new.rs && git commit -qm "lib: new" && git push -q origin HEAD:main)
mkdir -p tests
echo t > tests/new.rs
git add lib tests
git commit -qm "use lib's new function"
git push -q origin main
# The fact: the remote .gitmodules names holds lib's commit.
[ "$(git -C "$case_root/lib.git" rev-parse main)" = "$(git -C lib rev-parse HEAD)" ] || fail "setup: lib.git lacks the commit"
expect_answer pushed unknown "submodule lib.s remote holds .* cannot be read: origin.s URL names .*lib\.git on this machine, a repository whose refs are stored in the reftable format"
expect_also pushed "refs migrate --ref-format=files" unknown
# The honest way: read as files, it holds the commit.
git -C "$case_root/lib.git" refs migrate --ref-format=files
expect_answer pushed pass ""
