# A task started where the files and the index were written in the same
# second (a fresh clone, a checkout) reads those files by content at the
# start and keeps a stamp of each (its stat data, the change time to the
# nanosecond), so that a check does not read them again
# (crates/majordomus-readings/src/status/verified.rs). A stamp must never
# vouch for a file changed since: rewritten in place with as many bytes and
# its modification time put back (as `touch -r` or an editor that keeps
# times does), it has a new change time and is counted. A CRLF file is
# stamped too (libgit2 judged it through the conversion), and counted once
# rewritten the same way.
source "$(dirname "$0")/../lib.sh" || exit 2

printf 'one\n' > a.txt
printf 'two\n' > b.txt
printf 'crlf\r\n' > c.txt
printf '*.txt text=auto\n' > .gitattributes
exempt_forge
commit_all "initial"
# The index as old as the files, to the second: every entry racily clean.
newest=$(stat -c %Y a.txt b.txt c.txt .gitattributes | sort -n | tail -1)
touch -d "@$newest.999999999" .git/index
sleep 0.2 # the files' change times well before the start's reading
expect_run 0 md start "nothing yet"
[ "$(json_get .ai/local/state/task.json "len(d['snapshot']['reading'].get('verified', ''))")" -gt 0 ] || fail "the start kept no stamp of the files it read"
expect_answer committed "pass" "."

# Rewritten in place, as many bytes, the modification time put back.
mtime=$(stat -c %y a.txt)
printf 'ONE\n' > a.txt
touch -d "$mtime" a.txt
[ -n "$(git status --porcelain a.txt)" ] || fail "setup: git should count a.txt"
expect_open committed "a\.txt" owed
judge_answer committed "owed" "^1 tracked file"

# The CRLF file, rewritten in place the same way.
git checkout -q -- a.txt
mtime=$(stat -c %y c.txt)
printf 'CRLF\r\n' > c.txt
touch -d "$mtime" c.txt
[ "$(git status --porcelain)" = " M c.txt" ] || fail "setup: git should count c.txt alone: $(git status --porcelain)"
expect_open committed "c\.txt" owed
judge_answer committed "owed" "^1 tracked file"
