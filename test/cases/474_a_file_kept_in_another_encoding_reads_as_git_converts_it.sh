#!/usr/bin/env bash
# A file kept in the working tree in another encoding than git stores
# (`.gitattributes`: `working-tree-encoding=UTF-16LE`) is compared with its
# blob through git's conversion: decoded to UTF-8, a byte order mark taken
# off, its line ends converted as the attributes say. Compared raw, an
# edit committed and pushed stayed "not committed" while `git status`
# listed nothing, with no way out. An edit left uncommitted is still seen,
# and a file in an encoding majordomus does not convert is said, not
# guessed.
source "$(dirname "$0")/../lib.sh" || exit 2

printf '*.txt text working-tree-encoding=UTF-16LE eol=lf\n*.rc text eol=crlf working-tree-encoding=UTF-16\n' > .gitattributes
printf 'hello\n' | iconv -f UTF-8 -t UTF-16LE > greeting.txt
{ printf '\xff\xfe'; printf 'IDS_HELLO "hello"\r\n' | iconv -f UTF-8 -t UTF-16LE; } > app.rc
echo base > README
exempt_forge
commit_all "initial"
with_origin
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git status is not clean"
expect_run 0 md start "greet the world"
expect_run 0 md todo add "greeting"
expect_run 0 md todo done 1

# Edited, not committed: git lists it, and so does majordomus.
printf 'hello world\n' | iconv -f UTF-8 -t UTF-16LE > greeting.txt
[ -n "$(git status --porcelain -uall)" ] || fail "setup: git sees no edit"
expect_open committed "greeting.txt" owed

# Committed and pushed, with the resource file touched: git lists nothing.
{ printf '\xff\xfe'; printf 'IDS_HELLO "hello"\r\n' | iconv -f UTF-8 -t UTF-16LE; } > app.rc
mkdir -p tests && printf 'iconv -f UTF-16LE -t UTF-8 greeting.txt | grep -q world\n' > tests/greeting.sh
git add tests/greeting.sh
git commit -qam "greet the world"
git push -q origin main
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git status is not clean"
expect_answer committed pass "."
expect_run 0 md check

# An encoding majordomus does not convert, on a file whose stat data no
# longer vouches for it: unknown, naming it.
printf '*.sj working-tree-encoding=SHIFT-JIS\n' >> .gitattributes
printf '\x82\xa0\n' > menu.sj
commit_all "a menu"
git push -q origin main
sleep 1
touch menu.sj
expect_answer committed unknown "SHIFT-JIS"
