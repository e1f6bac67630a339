# A ledger append that cannot be written whole (a file size limit stands
# in for a full disk) leaves the ledger exactly as it was, and every ledger
# question stays measured. A torn last line (a write that never finished) is
# ignored and said, and the next append removes it; a damaged line with
# lines after it stays an error, naming its line.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
commit_all "initial"
ledger=.ai/local/state/ledger.jsonl

expect_run 0 md start "work"
expect_run 0 md todo add the first thing
before=$(wc -c < "$ledger")
[ "$before" -lt 900 ] || fail "the ledger is already too long for the limit: $before bytes"

# 1024-byte blocks: the next line crosses the limit part way, and the write
# past it fails (SIGXFSZ ignored), as on a full disk.
long=$(printf 'x%.0s' $(seq 1 1500))
set +e
out=$(ulimit -f 1; trap '' XFSZ; md todo add "$long" 2>&1)
code=$?
set -e
[ "$code" -eq 13 ] || fail "expected exit 13 from a todo that does not fit, got $code"
expect_contains "nothing was written"
[ "$(wc -c < "$ledger")" -eq "$before" ] || fail "a partial line was left: $(wc -c < "$ledger") bytes, $before before"
expect_status todos-done owed
expect_run 0 md todo list
expect_contains "the first thing"

# A torn last line: ignored by every reader, said, and removed by the next append.
printf '{"at": "2026-11-30T10:00:00Z", "task": "t", "kind": "todo_a' >> "$ledger"
expect_status todos-done owed
expect_run 10 md check
expect_contains "the last line (59 bytes, no final newline) is a write that did not finish: it is ignored"
expect_run 0 md todo add the second thing
expect_contains "todo 2 added"
[ "$(tail -c 1 "$ledger" | od -An -c | tr -d ' ')" = '\n' ] || fail "the ledger does not end with a whole line"
grep -q 'todo_a$' "$ledger" && fail "the torn line is still there"
expect_run 0 md todo list
expect_contains "the second thing"
expect_not_contains "did not finish"

# A damaged line in the middle is not a torn write: an error naming it.
last=$(tail -n 1 "$ledger")
printf '{"at": "2026\n%s\n' "$last" >> "$ledger"
expect_status todos-done unknown
expect_run 2 md todo list
expect_contains "ledger.jsonl:3: not a ledger entry"
