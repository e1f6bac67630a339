# A record majordomus reads (the task record and its copy, the ledger and
# its mark, the forge observation, the policy, a stop hook's loop guard,
# what check keeps between runs, an upstream's reflog, the sequencer's
# state files)
# replaced by a FIFO with `mkfifo` is a record that cannot be read: the
# question that reads it answers unknown (or the stop is blocked), at once.
# Opening a FIFO waits for a writer that never comes, and a stop hook that
# hangs past its host's timeout lets the stop through.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
md start "the parser" >/dev/null
md todo add "parse the header" >/dev/null
echo work > src.txt

# within WHAT CMD...: runs CMD with a time limit; fails if it ran out.
within() {
  local what=$1
  shift
  set +e
  out=$(timeout 10 "$@" 2>&1)
  got=$?
  set -e
  [ "$got" -ne 124 ] || fail "'$*' hung on $what replaced by a FIFO"
}

# stop_blocks WHAT SESSION: a first stop of the session SESSION is blocked.
stop_blocks() {
  local payload
  payload=$(printf '{"session_id":"%s","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$2" "$PWD")
  within "$1" bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ "$payload"
  [ "$(hook_decision)" = "block" ] || fail "the stop went through with $1 replaced by a FIFO"
}

# as_fifo PATH: PATH (moved aside) replaced by a FIFO; undo_fifo PATH puts it back.
as_fifo() {
  mkdir -p "$(dirname "$1")"
  if [ -e "$1" ]; then mv "$1" "$1.aside"; fi
  mkfifo "$1"
}
undo_fifo() {
  rm "$1"
  if [ -e "$1.aside" ]; then mv "$1.aside" "$1"; fi
}

stop_blocks "nothing" s-0
guard=$(ls .ai/local/state/hook/*.json | head -n 1)
git_dir=$(git rev-parse --git-dir)
n=0

for record in .ai/local/state/task.json "$git_dir/majordomus/task.json" .ai/local/state/ledger.jsonl \
  "$git_dir/majordomus/ledger-mark.json" "$git_dir/majordomus/forge.json" .ai/repo/majordomus.toml \
  "$guard" .ai/local/state/hook/stray.json .ai/local/state/integration.cache.json \
  .ai/local/state/branches.cache .ai/local/state/remotes.cache .ai/local/state/push.cache.json \
  "$git_dir/logs/refs/remotes/origin/main" "$git_dir/CHERRY_PICK_HEAD" "$git_dir/sequencer/todo"; do
  as_fifo "$record"
  within "$record" "$MAJORDOMUS" check
  [ "$got" -eq 10 ] || fail "check exited $got with $record replaced by a FIFO"
  # The guard's own session for the guard; a session of its own for every other.
  session=s-$((n += 1))
  [ "$record" != "$guard" ] || session=s-0
  stop_blocks "$record" "$session"
  undo_fifo "$record"
done

# Each reader says what it found, and the question is not a pass.
as_fifo .ai/local/state/ledger.jsonl
within "the ledger" "$MAJORDOMUS" check --json
cp .ai/local/state/gates.completion.json "$case_root/doc.json"
judge_answer todos-done unknown "FIFO"
undo_fifo .ai/local/state/ledger.jsonl

as_fifo .ai/local/state/task.json
within "the task record" "$MAJORDOMUS" check
expect_contains "FIFO"
undo_fifo .ai/local/state/task.json

as_fifo "$git_dir/logs/refs/remotes/origin/main"
within "the upstream's reflog" "$MAJORDOMUS" check --json
cp .ai/local/state/gates.completion.json "$case_root/doc.json"
judge_answer pushed unknown "FIFO"
undo_fifo "$git_dir/logs/refs/remotes/origin/main"
