#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# make (and cargo) rebuild a target only where a source is newer than it.
# A task that changes src/sum.c and dates it back (`touch -r` of a file the
# checkout wrote, `cp -p` or `tar x` of an older copy) leaves the test
# binary built from the old source up to date: `make check` runs it and
# passes, and the verdict is recorded over the new source's hash, while
# the committed code fails the test (`make -B check`). `gate run` now reads
# the modification time of each input the task changed: one older than the
# start is named, nothing is run and no verdict recorded, with the remedy
# `touch -- PATH && majordomus gate run ID`, which runs the real build.

lib_c_project "make check"
touch -d '2026-01-01 00:00:00' Makefile
expect_run 0 md start "rework the sum"
# A test written, and run: the binary is built from the start's sum.
printf '#include <assert.h>\nint sum(int, int);\nint main(void) { assert(sum(1, 2) == 3); assert(sum(2, 2) == 4); return 0; }\n' > tests/t_sum.c
expect_run 0 md gate run unit

# The sum broken and dated back, as old as the checkout's Makefile.
sleep 1
sed -i 's/a + b/a - b/' src/sum.c
touch -r Makefile src/sum.c
commit_all "work"
expect_run 10 md gate run unit
expect_contains "src/sum.c"
expect_contains "touch -- src/sum.c && majordomus gate run unit"
expect_not_contains "verdict recorded"
expect_open gates-green "unit" "owed refused"
expect_run 10 md check

# The remedy as written: make rebuilds, the test fails, and that counts.
expect_run 10 bash -c "touch -- src/sum.c && \"$MAJORDOMUS\" gate run unit"
expect_status gates-green refused

# The honest flow: the sum made right, run again, green.
sed -i 's/a - b/a + b/' src/sum.c
commit_all "fixed"
expect_run 0 md gate run unit
expect_answer gates-green pass "unit passed"
