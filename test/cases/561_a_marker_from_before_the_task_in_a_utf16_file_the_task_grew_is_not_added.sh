#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The limitation register decodes a file saved as UTF-16 with its byte
# order mark (test/cases/457), but read the start commit's blob of the same
# file as UTF-8: no line of it matched a line of the file now, so every
# line was added, and a marker there from before the task (one naming no
# issue, or a closed one) was refused as the task's. The task's only way
# out was to remove a marker it never wrote. Both sides are decoded alike
# now: the marker the task adds is still read, and refused, in that file.

L="LIMIT""ATION"
utf16() { printf '\xff\xfe'; printf '%s' "$1" | iconv -f UTF-8 -t UTF-16LE; }
mkdir -p src tests
utf16 "export const a = 1;
// $L(see the notes): a is rounded
" > src/a.ts
echo a > tests/a.txt
commit_all "initial"
with_origin; exempt_forge
commit_all pol; git push -q
expect_run 0 md start "b"

utf16 "export const a = 1;
// $L(see the notes): a is rounded
export const b = 2;
" > src/a.ts
echo b >> tests/a.txt
commit_all "b"
git push -q origin main
expect_run 0 md check
expect_contains "done: complete"

# A marker the task adds there is read as ever.
utf16 "export const a = 1;
// $L(see the notes): a is rounded
export const b = 2;
// $L(b too): b is rounded
" > src/a.ts
commit_all "b rounded"
git push -q origin main
expect_open markers-live "src/a.ts:4 $L\(b too\) names no issue number" refused
expect_not_contains "src/a.ts:2"
