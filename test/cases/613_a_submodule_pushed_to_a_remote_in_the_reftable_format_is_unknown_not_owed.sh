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

lib_remote --ref-format=reftable
lib_bumped ../lib.git
git -C lib push -q origin HEAD:main
# The fact: the remote .gitmodules names holds lib's commit.
[ "$(git -C "$case_root/lib.git" rev-parse main)" = "$(git -C lib rev-parse HEAD)" ] || fail "setup: lib.git lacks the commit"
expect_answer pushed unknown "submodule lib.s remote holds .* cannot be read: origin.s URL names .*lib\.git on this machine, a repository whose refs are stored in the reftable format"
expect_also pushed "refs migrate --ref-format=files" unknown
# The honest way: read as files, it holds the commit.
git -C "$case_root/lib.git" refs migrate --ref-format=files
expect_answer pushed pass ""
