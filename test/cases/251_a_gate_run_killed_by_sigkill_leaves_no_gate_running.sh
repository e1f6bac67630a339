# SIGKILL cannot be caught, yet a `gate run` killed by it leaves nothing of
# the gate running: the gate's shell runs under majordomus's own supervise
# mode, which leads the gate's process group and stops it (SIGTERM, a grace
# period, SIGKILL) when its parent dies
# (apps/majordomus-cli/src/commands/supervise.rs). No verdict is recorded.
# The gate leaves a child that ignores SIGTERM, so only SIGKILL ends it.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.long]
run = "sh long.sh"
always = true
TOML
cat > long.sh <<'SH'
trap '' TERM
sleep 300 &
echo "$$ $!" > pids.tmp && mv pids.tmp pids
wait
SH
echo "hello" > README
commit_all "initial"
expect_run 0 md start "work"

alive() { [ -r "/proc/$1/stat" ] && ! grep -q ') Z ' "/proc/$1/stat"; }
pids_ready() { [ -s pids ] && [ "$(wc -w < pids)" -eq 2 ]; }

"$MAJORDOMUS" gate run long > /dev/null 2> "$case_root/err" &
md_pid=$!
for _ in $(seq 1 1000); do pids_ready && break; sleep 0.01; done
pids_ready || fail "the gate never started"
kill -KILL "$md_pid"
wait "$md_pid" 2>/dev/null || true
# The supervisor hears of it at once; the child that ignores SIGTERM ends
# after the grace period (2 s): waited for up to 20 s.
for pid in $(cat pids); do
  for _ in $(seq 1 2000); do alive "$pid" || break; sleep 0.01; done
  alive "$pid" && { kill -KILL $(cat pids) 2>/dev/null; fail "$pid of the gate's group outlived a kill -9 of gate run"; }
done
if grep -q '"gate_run"' .ai/local/state/ledger.jsonl 2>/dev/null; then fail "a verdict was recorded"; fi
exit 0
