#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The limitation register quotes a marker word its pattern does not match
# (no issue number) up to its closing parenthesis, else its first 40
# characters: counted in bytes, the cut fell inside a character where the
# text after the word is not ASCII and has no parenthesis (a French note,
# `// LIMITATION(à corriger : la réponse dépasse le délai prévu`), and
# every `check` panicked (exit 13, "nothing was judged"); the stop hook
# blocked once saying to run `majordomus check`, which crashed too, then
# let the next stop through.

L="LIMIT""ATION"
mkdir -p src tests
printf 'fn a() {}\n' > src/lib.rs
echo 'a' > tests/a.txt
commit_all "initial"
with_origin; exempt_forge
commit_all pol; git push -q
expect_run 0 md start "le délai"

printf 'fn a() {}\n// %s(à corriger : la réponse dépasse le délai prévu\n' "$L" > src/lib.rs
echo 'b' >> tests/a.txt
commit_all "le délai"
git push -q origin main

expect_run 10 md check
expect_not_contains "panicked"
expect_not_contains "internal error"
expect_open markers-live "src/lib.rs:2 $L\(à corriger : la réponse.* names no issue number" refused

# The stop is blocked on what is owed, not on a crash, and stays blocked.
stop_hook "$PWD"
[ "$(hook_decision)" = block ] || fail "the stop was not blocked: $out"
expect_contains "markers-live"
expect_not_contains "crashed"

# The honest way out: the note without the marker word passes.
printf 'fn a() {}\n// à corriger : la réponse dépasse le délai prévu\n' > src/lib.rs
commit_all "la note"
git push -q origin main
expect_run 0 md check
expect_contains "done: complete"
