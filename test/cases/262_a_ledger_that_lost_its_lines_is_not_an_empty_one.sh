# The ledger holds what the task declared (todos, claims, background work)
# and the gates' verdicts. Deleting it, or cutting it short, must not read
# as "nothing declared": the questions that read it are unknown, naming the
# loss, nothing is appended over it (an append would cover it), and the stop
# hook blocks. What happened to the ledger before a task started is not
# held against that task.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "one" > a.txt
commit_all "initial"
exempt_forge
commit_all "no forge here"
md start "the parser" >/dev/null
md todo add "parse the header" >/dev/null
echo "two" >> a.txt
mkdir -p tests && echo "test -s a.txt" > tests/a.sh
commit_all "the parser"
expect_run 10 md check
expect_contains "todos-done=owed"

rm .ai/local/state/ledger.jsonl
expect_run 10 md check
expect_contains "lost lines since majordomus last wrote it"
expect_contains "todos-done=unknown"
expect_not_contains "todos-done=pass"
expect_run 2 md todo add "another"
expect_contains "lost lines"
[ ! -e .ai/local/state/ledger.jsonl ] || fail "an append was made over the lost ledger"
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the ledger gone"
expect_contains "todos-done"

# Cut short to its first bytes: the same.
md finish --outcome partial >/dev/null
md start "again" >/dev/null
md todo add "first" >/dev/null
md todo add "second" >/dev/null
head -c 20 .ai/local/state/ledger.jsonl > cut && mv cut .ai/local/state/ledger.jsonl
expect_run 10 md check
expect_contains "todos-done=unknown"

# Emptied between tasks: the next task (which continues the task left
# open, whose work is committed and tested) is not held to it.
md finish --outcome failed >/dev/null
rm .ai/local/state/ledger.jsonl
md start "afresh" >/dev/null
expect_run 0 md todo add "one thing"
expect_run 0 md todo done 1
expect_run 0 md check
expect_not_contains "lost lines"
expect_contains "done: complete"
