#!/usr/bin/env bash
# README, "Gates": found on benhoyt/inih, whose tests/unittest.sh writes the
# committed golden files tests/baseline_*.txt again at every run, byte for
# byte when nothing broke, and reads `git diff` for failures. A gate running
# it over inputs ["**"] said at every run "1 input file changed while it
# ran ... run it again and leave its inputs alone", which can never work:
# the command itself is the writer. A tracked input written again while the
# command runs still voids the run, content and all (a file swapped and put
# back within the run looks the same afterwards: the attack below stays
# closed), but where every moved input holds again what it was hashed with,
# `gate run` says the command rewrites its inputs as they were, that
# running it again will not help, and the ways out: the project's script
# replacing a golden file only where it differs (a change the task may
# make, which then records a pass), or a change of the gate, in force only
# as a colleague's commit pulled (test/cases/505).
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p tests
echo 'int f(void){return 1;}' > lib.c
printf '#!/bin/sh\necho "f=1" > baseline.txt\n' > tests/run.sh
echo 'f=1' > tests/baseline.txt
md init > /dev/null
cat >> .ai/repo/majordomus.toml <<'TOML'
[gates.test]
run = "cd tests && sh run.sh && git diff --exit-code -- ."
inputs = ["**"]
TOML
commit_all "project and policy"; with_origin
md start "fix f" > /dev/null
echo 'int f(void){return 1; /* checked */}' > lib.c
printf '#!/bin/sh\necho "f=1" > baseline.txt\necho "g=1" >> baseline.txt\n' > tests/run.sh
printf 'f=1\ng=1\n' > tests/baseline.txt
commit_all "fix f, with its golden line"; git push -q origin main

# The golden file written again as it was: no verdict, said as it is.
expect_run 10 md gate run test
expect_contains "1 input file was written again while it ran (tests/baseline.txt), each with the bytes it was hashed with"
expect_contains "running it again will not help"
expect_contains "replace an input only where it differs"
expect_not_contains "run it again and leave its inputs alone"
expect_open gates-green "test"

# The honest way out: the project's script writes a scratch file and
# replaces the golden one only where it differs; the run is recorded.
cat > tests/run.sh <<'SH'
#!/bin/sh
t=$(mktemp)
printf 'f=1\ng=1\n' > "$t"
if cmp -s "$t" baseline.txt; then rm -f "$t"; else mv "$t" baseline.txt; fi
SH
commit_all "tests: a golden file is replaced only where it differs"; git push -q origin main
expect_run 0 md gate run test
expect_answer gates-green pass "test"

# The attack a rewrite as it was must not open: the fix swapped in over
# the broken, committed file while the command runs, and put back before
# it ends. Its stamp moved, its content is the commit's: still no verdict.
cd "$case_root"
git init -q -b main swap && cd swap
mkdir -p src
echo 'state = "broken"' > src/app.py
printf '[gates.unit]\nrun = "touch ../started; sleep 2; grep -q fixed src/app.py && touch ../read && sleep 3"\ninputs = ["src/**"]\n' > majordomus.toml
mkdir -p .ai/repo && mv majordomus.toml .ai/repo/
exempt_forge
commit_all "initial"
expect_run 0 md start "work"
echo '# the task touched src, so the gate is selected' > src/notes.py
commit_all "notes"
"$MAJORDOMUS" gate run unit > "$case_root/swap.out" 2>&1 &
pid=$!
for _ in $(seq 1 400); do [ -e "$case_root/started" ] && break; sleep 0.05; done
echo 'state = "fixed"' > src/app.py
for _ in $(seq 1 400); do [ -e "$case_root/read" ] && break; sleep 0.05; done
[ -e "$case_root/read" ] || fail "setup: the command never read the fix"
git checkout -q -- src/app.py
wait $pid && rc=0 || rc=$?
out=$(cat "$case_root/swap.out")
[ "$rc" -eq 10 ] || fail "expected the swapped run to record no verdict, got exit $rc"
expect_contains "written again while it ran (src/app.py)"
expect_open gates-green "unit"
