# What the stop hook writes (the completion document, the loop guard) lies
# in the working tree, where a worker can put something majordomus will not
# write through: the state directory made a symbolic link, the document's
# name taken by a directory, the guards' directory by a file. The work is
# measured all the same, and work not done is blocked: what could not be
# written is said beside the block, never taken for a reason to let the
# stop through. Without a guard to count blocks, the host's own flag
# (`stop_hook_active`, a stop that comes of a block) ends the loop.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
md start "the parser" >/dev/null
echo work > src.txt

blocked_with() {
  stop_hook "$PWD"
  [ "$(hook_decision)" = "block" ] || fail "the stop went through with $1"
  expect_contains "no-untracked"
  expect_contains "$2"
}

state=.ai/local/state

# The state directory moved away and a link left in its place.
mv "$state" "$case_root/elsewhere"
ln -s "$case_root/elsewhere" "$state"
blocked_with "the state directory a symbolic link" "symbolic link"
expect_run 2 md check
# The host's flag ends the loop: the stop that comes of the block goes through, saying what is owed.
payload=$(printf '{"session_id":"s-1","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":true}' "$PWD")
expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ "$payload"
[ "$(hook_decision)" != "block" ] || fail "a stop that came of a block was blocked again with no guard to count it"
expect_contains "no-untracked"
rm "$state"
mv "$case_root/elsewhere" "$state"

# The completion document's name taken by a directory: the guard still counts.
rm -f "$state/gates.completion.json"
mkdir -p "$state/gates.completion.json/x"
blocked_with "the completion document a directory" "gates.completion.json"
rm -r "$state/gates.completion.json"

# The guards' directory taken by a file.
rm -rf "$state/hook"
echo x > "$state/hook"
blocked_with "the guards' directory a file" "hook"
rm "$state/hook"

# The ledger's name taken by a directory, at a stop reporting the host's background work.
mkdir "$state/ledger.jsonl"
payload=$(printf '{"session_id":"s-2","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false,"background_tasks":[]}' "$PWD")
expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ "$payload"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the ledger a directory"
expect_contains "background work"
rmdir "$state/ledger.jsonl"

# A task record that cannot be read, under a state directory that is a link.
mv "$state" "$case_root/elsewhere"
ln -s "$case_root/elsewhere" "$state"
echo x > "$state/task.json"
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the record unreadable and the state a link"
expect_contains "task.json"

# A task record that cannot be read, beside a policy that does not read either.
rm "$state"
mv "$case_root/elsewhere" "$state"
mkdir -p .ai/repo
echo 'not toml' >> .ai/repo/majordomus.toml
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the record and the policy unreadable"
expect_contains "task.json"
