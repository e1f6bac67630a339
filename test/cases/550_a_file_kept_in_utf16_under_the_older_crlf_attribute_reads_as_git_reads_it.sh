#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A file kept as UTF-16 (`working-tree-encoding`) under the older `crlf`
# attribute: `-crlf` is git's `-text`, so under core.autocrlf = true its
# CRLF ends are content git keeps. The task rewrote a.txt with CRLF ends,
# staged it and unstaged it again (`git restore --staged` leaves the entry
# without stat data, so its content decides); git status lists a.txt
# modified. majordomus converts such files itself (libgit2 has no
# encodings) and read only `text` and `eol`: it took a.txt for
# core.autocrlf's text, made its CRLF ends LF, found the blob, and
# committed passed beside an inherited edit (the one that sent the reading
# to the conversions). The older attribute is now read as git reads it
# (`crlf` is `text`, `-crlf` `-text`, `crlf=input` text written LF), and
# a file whose content holds a CR is compared through the conversions
# even when no other file differs. The honest flow: a.txt committed, and
# committed passes.

lists() { git -c core.fsmonitor=false status --porcelain=v2 -uall | grep -q -- "$1"; }
utf16() { printf '%b' "$1" | iconv -f UTF-8 -t UTF-16LE; }

exempt_forge
git config core.autocrlf true
printf '*.txt working-tree-encoding=UTF-16LE -crlf\n' > .gitattributes
utf16 'x\n' > a.txt
echo 'notes' > notes.md
commit_all "a file kept as UTF-16" 2>/dev/null
echo 'my own notes' > notes.md
expect_run 0 md start "line ends"
utf16 'x\r\n' > a.txt
git add a.txt
git restore --staged a.txt
lists ' a.txt' || fail "setup: git does not list a.txt"
expect_open committed "a\.txt.*not counted: notes\.md" owed

git add a.txt
git commit -q -m "CRLF ends"
lists ' a.txt' && fail "setup: git still lists a.txt"
expect_answer committed pass "notes\.md"

# Kept as UTF-16 with CRLF ends under `crlf` (text), touched only: clean
# to git, and read clean though no other file differs.
git init -q -b main "$case_root/two"
cd "$case_root/two"
exempt_forge
printf '*.txt working-tree-encoding=UTF-16LE crlf\n*.in working-tree-encoding=UTF-16LE crlf=input\n' > .gitattributes
utf16 'x\r\ny\r\n' > a.txt
utf16 'x\r\ny\r\n' > b.in
commit_all "kept as UTF-16" 2>/dev/null
expect_run 0 md start "nothing"
touch -d '+5 seconds' a.txt b.in
lists 'a.txt\|b.in' && fail "setup: git lists a touched file"
expect_answer committed pass "."
