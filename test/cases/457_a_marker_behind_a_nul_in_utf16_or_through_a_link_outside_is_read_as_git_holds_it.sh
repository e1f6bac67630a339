#!/usr/bin/env bash
# The markers are read from every regular file the register scans, as its
# bytes are: a NUL near the start (a shell script's separator) no longer
# hides a marker below it, and a file saved as UTF-16 with its byte order
# mark is decoded. A symbolic link is what git stores it as, its target's
# name: one leading outside the tree names no limitation any clone holds.
source "$(dirname "$0")/../lib.sh" || exit 2

L="LIMIT""ATION"
fake_gh_with_issues
mkdir -p src tests
printf '#!/bin/sh\necho hi\n' > src/run.sh
printf 'export const a = 1;\n' > src/a.ts
commit_all "initial"
with_origin
on_forge acme/widgets 9 closed limitation
expect_run 0 md forge refresh
expect_run 0 md start "pack the trailer"
printf '#!/bin/sh\n# sep: \000\necho hi\n# %s(#9): trailers over 4k are cut\n' "$L" > src/run.sh
echo 'x' > tests/trailer.txt
commit_all "pack the trailer"
git push -q origin main
expect_run 0 md forge refresh
expect_open markers-live "src/run.sh.*#9" refused

printf '#!/bin/sh\necho hi\n' > src/run.sh
{ printf '\xff\xfe'; printf 'export const a = 1;\n// %s(#9): trailers over 4k are cut\n' "$L" | iconv -f UTF-8 -t UTF-16LE; } > src/trailer.ts
commit_all "the trailer in typescript"
git push -q origin main
expect_run 0 md forge refresh
expect_open markers-live "src/trailer.ts.*#9" refused

# A marker for a filed issue kept outside the tree through a committed
# link registers nothing: git grep finds no marker in any clone.
rm src/trailer.ts
on_forge acme/widgets 2 open limitation
expect_run 0 md issue file 2
echo "// $L(#2): the header's extension fields are not parsed" > "$case_root/my-notes.rs"
ln -s "$case_root/my-notes.rs" src/limits.rs
commit_all "the limitation, noted outside"
git push -q origin main
expect_run 0 md forge refresh
expect_open filings-closed "#2" owed
