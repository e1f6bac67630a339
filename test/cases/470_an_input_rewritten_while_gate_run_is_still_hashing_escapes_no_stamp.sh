#!/usr/bin/env bash
# The stamps that prove a gate's inputs did not change while its command
# ran (case 317) must be taken before the inputs are read, or a write
# between the read and the stamps goes unseen: a clean tracked file is
# hashed by its index id as the status pass found it, so the fix copied
# over the broken, committed src/app.py while `gate run` is still hashing a
# large input was stamped as the fix, run as the fix, and recorded as the
# broken file's pass once `git checkout` put it back. `gate run` reads the
# inputs twice and stamps them between: a write before the stamps makes the
# second read differ (read again, the verdict covers the fix), one after
# them moves a stamp (no verdict). Either way gates-green is not a pass
# over the broken file; left alone, the same run passes.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src data .ai/repo
echo 'state = "broken"' > src/app.py
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q fixed src/app.py"
inputs = ["**"]
TOML
exempt_forge
commit_all "initial"
# a data file, untracked before the start (the start's: inherited)
head -c 64M /dev/zero > data/big.bin
md start "work" > /dev/null

expect_run 10 md gate run unit          # the gate fails over the committed file
touch data/big.bin                      # its kept id no longer holds: hashed again
"$MAJORDOMUS" gate run unit > "$case_root/run.out" 2>&1 &
pid=$!
# once majordomus is reading the large input, the fix goes in
for _ in $(seq 1 2000); do
  ls -l /proc/$pid/fd 2>/dev/null | grep -q 'data/big.bin' && break
  sleep 0.005
done
echo 'state = "fixed"' > src/app.py
wait $pid && rc=0 || rc=$?
git checkout -q -- src/app.py           # the broken file back
grep -q broken src/app.py || fail "setup: the broken file is not back"
expect_open gates-green "unit"

# The honest flow: the fix committed, the gate run over it and left alone.
echo 'state = "fixed"' > src/app.py
commit_all "fix"
touch data/big.bin
expect_run 0 md gate run unit
expect_answer gates-green pass "unit"
