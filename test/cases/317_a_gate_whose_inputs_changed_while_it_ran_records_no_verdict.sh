# `gate run` hashes a gate's inputs before the command starts and records
# the verdict against that hash. An input changed while the command runs
# and put back afterwards (the fix copied in for the run, the broken file
# restored; a `git stash` around it) must not leave a pass over content the
# command never saw: no verdict is recorded, and gates-green stays owed.
source "$(dirname "$0")/../lib.sh" || exit 2

# The gate waits for the case to say go, so the edit lands while it runs.
start_broken_on_origin "touch '$case_root/started'; while [ ! -e '$case_root/go' ]; do sleep 0.01; done; grep -q fixed src/lib.rs"

# run_swapping CONTENT...: gate run unit, with src/lib.rs holding CONTENT
# while it runs, and put back as it was once the run has ended.
run_swapping() {
  rm -f "$case_root/started" "$case_root/go"
  cp src/lib.rs "$case_root/kept"
  set +e
  "$MAJORDOMUS" gate run unit > "$case_root/run.out" 2>&1 &
  local runner=$!
  while [ ! -e "$case_root/started" ]; do sleep 0.01; done
  echo "$1" > src/lib.rs
  touch "$case_root/go"
  wait "$runner"
  got=$?
  set -e
  cp "$case_root/kept" src/lib.rs
  out=$(cat "$case_root/run.out")
}

run_swapping "fn a() { fixed }"
[ "$got" -ne 0 ] || fail "gate run exited 0 over inputs that changed while it ran"
expect_contains "changed while it ran"
expect_contains "src/lib.rs"
expect_open gates-green "unit" "owed"

# The same with the working tree put back by git: stash, run, pop.
echo "fn a() { fixed }" > src/lib.rs
git stash -q
rm -f "$case_root/started" "$case_root/go"
set +e
"$MAJORDOMUS" gate run unit > "$case_root/run.out" 2>&1 &
runner=$!
while [ ! -e "$case_root/started" ]; do sleep 0.01; done
git stash pop -q
touch "$case_root/go"
wait "$runner"
got=$?
set -e
git checkout -q -- src/lib.rs
[ "$got" -ne 0 ] || fail "gate run exited 0 over a stash popped while it ran"
expect_open gates-green "unit" "owed"

# A run left alone records its verdict as ever: over the broken file, a failure.
rm -f "$case_root/started"
touch "$case_root/go"
expect_run 10 md gate run unit
expect_open gates-green "unit" "refused"
