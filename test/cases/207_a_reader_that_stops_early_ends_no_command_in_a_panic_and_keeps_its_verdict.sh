# A reader that stops early (`majordomus explain pushed | head -1`) closes
# the pipe under majordomus, and its next write to stdout fails (EPIPE):
# the command ends quietly with the exit it had, never in a panic (exit
# 13). Exit 0 for a command that only prints; check and score keep their
# verdict, so work not done never exits 0 for a reader that left. A stderr
# nobody reads fails nothing either. (apps/majordomus-cli/src/out.rs)
source "$(dirname "$0")/../lib.sh" || exit 2

# closed_run STREAM WANT ARGS...: runs majordomus ARGS with STREAM (stdout or stderr) a
# pipe whose reader is already gone (deterministic: the first write fails);
# fails unless it exits WANT and its other stream holds no panic.
closed_run() {
  local stream=$1 want=$2
  shift 2
  local got
  got=$(python3 - "$stream" "$case_root/other" "$MAJORDOMUS" "$@" <<'PY'
import os, subprocess, sys
stream, other, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
r, w = os.pipe()
os.close(r)
with open(other, "wb") as o:
    streams = {"stdout": w, "stderr": o} if stream == "stdout" else {"stdout": o, "stderr": w}
    print(subprocess.run(cmd, stdin=subprocess.DEVNULL, **streams).returncode)
PY
  )
  out=$(cat "$case_root/other")
  [ "$got" = "$want" ] || fail "with its $stream closed, 'majordomus $*' exited $got, not $want"
  expect_not_contains "panicked"
}

# head_run WANT ARGS...: runs majordomus ARGS | head -1 (pipefail off) and
# fails unless the majordomus side of the pipe exits WANT with no panic on stderr.
head_run() {
  local want=$1
  shift
  set +o pipefail
  md "$@" 2>"$case_root/err" | head -1 >/dev/null
  local got=${PIPESTATUS[0]}
  set -o pipefail
  out=$(cat "$case_root/err")
  [ "$got" = "$want" ] || fail "piped into head -1, 'majordomus $*' exited $got, not $want"
  expect_not_contains "panicked"
}

echo hello > README
commit_all "initial"

closed_run stdout 0 start "a greeting"
[ -f .ai/local/state/task.json ] || fail "start, its stdout closed, did not start the task"
closed_run stdout 0 explain pushed
closed_run stdout 0 hook install --agent codex --dry-run
closed_run stdout 0 hook install --agent codex
closed_run stdout 0 markers scope
closed_run stdout 0 todo add "say hello"
closed_run stdout 0 todo list
closed_run stdout 0 bg list
closed_run stdout 0 gate list
closed_run stdout 0 schema
closed_run stdout 0 completions bash
# Not done (an untracked file, a todo open): the verdict stands.
echo draft > notes.txt
closed_run stdout 10 check
closed_run stdout 10 check --json
closed_run stdout 10 score
# A stderr nobody reads: the command goes on and answers as it would.
closed_run stderr 0 gate run --all

for words in "explain pushed" "hook install --agent codex --dry-run" "markers scope" "todo list" "schema" "completions bash"; do
  # shellcheck disable=SC2086 # the words are the arguments
  head_run 0 $words
done
head_run 10 check
