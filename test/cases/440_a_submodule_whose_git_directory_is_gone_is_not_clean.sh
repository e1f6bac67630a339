#!/usr/bin/env bash
# A submodule checked out at the start, edited inside since, then its git
# directory removed (`rm -rf .git/modules/lib`; lib/.git still names it):
# git stops on it (`fatal: not a git repository`), while majordomus read a
# `.git` it could not open as "not checked out", clean, and `committed`
# passed. A `.git` there whose repository cannot be opened is not clean.
source "$(dirname "$0")/../lib.sh" || exit 2

git init -q -b main "$case_root/sub"
(cd "$case_root/sub" && echo 'int f(){return 1;}' > lib.c && git add . && git commit -q -m i)
echo a > a
exempt_forge
commit_all "initial"
git -c protocol.file.allow=always submodule add -q "$case_root/sub" lib
commit_all "add lib"
expect_run 0 md start "t"
echo 'int g(){return 2;}' >> lib/lib.c
expect_open committed "lib" owed
rm -rf .git/modules/lib
git status > /dev/null 2>&1 && fail "git reads the submodule"
expect_open committed "lib" "owed unknown"

# A submodule's `.git` removed, its files left: git reads it as not checked
# out and shows nothing of them; they are not clean either.
rm -rf lib .git/modules/lib
git -c protocol.file.allow=always submodule update -q --init
echo 'int g(){return 2;}' >> lib/lib.c
rm lib/.git
[ -z "$(git status --porcelain)" ] || fail "git shows the submodule: $(git status --porcelain)"
expect_open committed "lib" owed
