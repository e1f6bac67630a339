# `PATH=fake:$PATH majordomus gate run unit` with a fake `sh` that exits 0:
# the gate's shell is /bin/sh by absolute path (so the real gate runs, and
# fails here), and a verdict recorded under a PATH other than the start's
# is named and not green.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_unit_gate
echo "fn a() { broken }" > src/lib.rs
echo t > tests/a.rs
commit_all "work"
expect_run 10 md gate run unit
fake=$(fake_program sh)
PATH="$fake:$PATH" md gate run unit > /dev/null 2>&1 || true
expect_open gates-green "unit" "owed refused"
expect_run 10 md check
