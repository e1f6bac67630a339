# A start continues the task its working tree left open (test/cases/335),
# and marks the ledger as it finds it, so that what happened to it between
# tasks is not held against what comes. `finish --outcome failed`, then
# `rm .ai/local/state/ledger.jsonl`, then `start` made the continued task's
# open todo, its claim and its background work vanish, and todos-done,
# claims-released and no-background-work pass. The archive keeps what the
# task declared; a start continuing it puts back what the ledger lost.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
push_a_feature
expect_run 0 md todo add "write the guide"
expect_run 0 md issue claim 12
sleep 600 &
worker=$!
trap 'kill "$worker" 2>/dev/null || true; rm -rf "$case_root"' EXIT
expect_run 0 md bg add "$worker" --what "the worker"
expect_run 10 md check
expect_contains "todos-done=owed"
expect_run 0 md finish --outcome failed

rm .ai/local/state/ledger.jsonl
expect_run 0 md start "another go"
expect_run 10 md check
expect_open todos-done "write the guide"
expect_also claims-released "12"
expect_also no-background-work "the worker"

# What the task declares and settles after is its own, as ever.
expect_run 0 md todo done 1
expect_run 0 md issue release 12
kill "$worker"; wait "$worker" 2>/dev/null || true
expect_run 0 md check
expect_contains "done: complete"
