# Whatever signals reach `gate run`, a second SIGINT in the grace period
# included, the gate's whole process group is killed before majordomus
# exits, and no verdict is recorded. The gate here ignores SIGTERM (and so
# does the child it leaves running), so only SIGKILL ends it; majordomus
# waits out a grace period after SIGTERM unless another signal comes.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.stubborn]
run = "trap '' TERM INT; sh stubborn.sh"
always = true
TOML
cat > stubborn.sh <<'SH'
trap '' TERM INT
sleep 300 &
echo "$$ $!" > pids.tmp && mv pids.tmp pids
wait
SH
echo "hello" > README
commit_all "initial"
expect_run 0 md start "work"

alive() { [ -r "/proc/$1/stat" ] && ! grep -q ') Z ' "/proc/$1/stat"; }
pids_ready() { [ -s pids ] && [ "$(wc -w < pids)" -eq 2 ]; }

# "pause": a moment between two signals, so the second lands in the grace
# period (standard signals sent at once may merge into one).
for signals in "INT pause INT" "TERM" "HUP INT TERM"; do
  rm -f pids
  "$MAJORDOMUS" gate run stubborn > /dev/null 2> "$case_root/err" &
  md_pid=$!
  for _ in $(seq 1 1000); do pids_ready && break; sleep 0.01; done
  pids_ready || fail "the gate never started"
  for s in $signals; do
    if [ "$s" = pause ]; then sleep 0.3; else kill -s "$s" "$md_pid" 2>/dev/null || fail "$signals: majordomus was gone before its $s"; fi
  done
  set +e
  wait "$md_pid"
  code=$?
  set -e
  out=$(cat "$case_root/err")
  [ "$code" -eq 10 ] || fail "$signals: expected exit 10 from an interrupted gate run, got $code"
  expect_contains "interrupted: the gate's processes were stopped and no verdict was recorded"
  # The group was killed before majordomus exited: give the kernel a moment to reap.
  for pid in $(cat pids); do
    for _ in $(seq 1 500); do alive "$pid" || break; sleep 0.01; done
    alive "$pid" && { kill -KILL "$pid"; fail "$signals: $pid of the gate's group outlived majordomus"; }
  done
  if grep -q '"gate_run"' .ai/local/state/ledger.jsonl 2>/dev/null; then fail "$signals: a verdict was recorded"; fi
done
