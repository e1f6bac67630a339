# The shell is the real one, but the program the gate runs (here grep;
# cargo or pytest in life) is a fake earlier on PATH: a pass recorded under
# a PATH other than the start's is named, with PATH, and not green.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_unit_gate
echo "fn a() { broken }" > src/lib.rs
echo t > tests/a.rs
commit_all "work"
expect_run 10 md gate run unit
fake=$(fake_program grep)
PATH="$fake:$PATH" md gate run unit > /dev/null 2>&1 || true
expect_open gates-green "PATH" "owed refused"
expect_run 10 md check
