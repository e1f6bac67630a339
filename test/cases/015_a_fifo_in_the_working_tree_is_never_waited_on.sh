# A FIFO (named pipe) in the working tree is never opened to wait for a
# writer: start, check, score, sweep and the stop hook all finish. What it
# means is git's view: an untracked FIFO is not listed (git status -uall
# lists none), a tracked file a FIFO replaced is modified, and a FIFO named
# like a debt baseline leaves the baselines unread, saying why.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src .ai/repo/debt
echo 'fn a() {}' > src/lib.rs
echo 'a file' > src/was-a-file.txt
echo 'a file too' > src/replaced-later.txt
echo 'old entry' > .ai/repo/debt/lint-baseline.txt
commit_all "initial"

# Each command under a timeout: one that blocks fails the case (exit 124), never hangs it.
t() { timeout 20 "$MAJORDOMUS" "$@"; }

mkfifo untracked-pipe
rm src/was-a-file.txt
mkfifo src/was-a-file.txt
mkfifo .ai/repo/debt/pipe-baseline.txt

expect_run 0 t start "a task among pipes"
expect_contains "inherited: 1 dirty, 0 untracked"
expect_contains "not read at the start: debt baselines (the baseline .ai/repo/debt/pipe-baseline.txt is a FIFO (named pipe), not a regular file, and was not read)"

expect_run 10 t check
expect_contains "no-new-debt=unknown"
expect_contains "baseline .ai/repo/debt/pipe-baseline.txt is a FIFO (named pipe), not a regular file"
expect_not_contains "untracked-pipe"

# The baseline FIFO gone, a tracked file replaced by one during the task:
# modified, as git says, and owed; the untracked one is still not listed.
rm .ai/repo/debt/pipe-baseline.txt
rm src/replaced-later.txt
mkfifo src/replaced-later.txt
[ "$(git status --porcelain -uall)" = "$(printf ' M src/replaced-later.txt\n M src/was-a-file.txt')" ] ||
  fail "git's own view changed: $(git status --porcelain -uall)"
expect_run 10 t check
expect_contains "committed=owed"
expect_contains "src/replaced-later.txt"
expect_not_contains "untracked-pipe"
expect_not_contains "no-untracked=owed"

expect_run 10 t score
expect_run 10 t sweep
payload='{"session_id":"s","cwd":"'"$PWD"'","hook_event_name":"Stop","stop_hook_active":false}'
expect_run 0 bash -c "printf '%s' '$payload' | timeout 20 '$MAJORDOMUS' hook stop"
expect_contains '"decision":"block"'
expect_contains "src/replaced-later.txt"
