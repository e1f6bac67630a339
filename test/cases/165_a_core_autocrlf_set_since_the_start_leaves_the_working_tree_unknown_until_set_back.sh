# core.autocrlf set since the start: the task rewrites a file with CRLF
# line ends, sets core.autocrlf = true and refreshes the index (git add),
# after which git converts them back on the way in and its stat data
# vouches for the file: git status is clean. The working tree cannot be
# read as the start read it without hashing every file, so committed is
# unknown, naming the setting and how to set it back; set back, the
# change is seen again.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
printf 'one\ntwo\n' > notes.txt
commit_all "initial"
expect_run 0 md start "a"
printf 'one\r\ntwo\r\n' > notes.txt
expect_open committed "notes.txt" "owed"
git config core.autocrlf true
git add notes.txt
[ -z "$(git status --porcelain)" ] || fail "setup: git still sees the change"
expect_open committed "core.autocrlf was set to \"true\" since the start.*git config --unset core.autocrlf" "unknown"
git config --unset core.autocrlf
expect_open committed "notes.txt" "owed"
