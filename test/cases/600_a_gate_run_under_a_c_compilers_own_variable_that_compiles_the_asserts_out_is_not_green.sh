#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The class of 420 and 479 (a runner's own variable that makes the gate run
# nothing), through the C compiler's: a `make` gate whose tests are C
# `assert`s compiled by make's built-in rule ($(CC) $(CFLAGS) $(CPPFLAGS)
# $(LDFLAGS), taken from the environment where the Makefile does not set
# them) passes under `CPPFLAGS=-DNDEBUG`, which compiles every assert out;
# and gcc's own `CPATH`, searched before the system's headers, puts a
# stand-in <assert.h> that asserts nothing first. A pass recorded under
# either is named and owed and does not replace the failure; run as at the
# start, the gate is refused. The list holds the compilers' and make's
# (CC, CXX, CFLAGS, CPPFLAGS, LDFLAGS, CPATH, ...), cgo's (CGO_ENABLED=0
# leaves out every test file under `//go:build cgo`, and go says "no test
# files") and cmake's and ctest's (CMAKE_BUILD_TYPE=Release defines
# NDEBUG; CTEST_NO_TESTS_ACTION=ignore).

lib_c_project "make -B check"
expect_run 0 md start "rework the sum"
expect_run 0 md gate run unit
sed -i 's/a + b/a - b/' src/sum.c
printf '#include <assert.h>\nint sum(int, int);\nint main(void) { assert(sum(1, 2) == 3); assert(sum(2, 2) == 4); return 0; }\n' > tests/t_sum.c
commit_all "work"
expect_run 10 md gate run unit

# make's built-in rule takes CPPFLAGS from the environment: no assert is
# compiled, the test binary exits 0.
CPPFLAGS=-DNDEBUG expect_run 0 md gate run unit
expect_open gates-green "unit .*CPPFLAGS" "owed"
expect_run 10 md check
expect_contains "-u CPPFLAGS"

# gcc's own CPATH: a stand-in <assert.h> found before the system's.
mkdir -p "$case_root/inc"
printf '#define assert(x) ((void)0)\n' > "$case_root/inc/assert.h"
CPATH="$case_root/inc" expect_run 0 md gate run unit
expect_open gates-green "unit .*CPATH" "owed"

# As at the start, it fails: the failure still counts.
expect_run 10 md gate run unit
expect_status gates-green refused

# The honest flow: the sum made right, run as at the start, green.
sed -i 's/a - b/a + b/' src/sum.c
commit_all "fixed"
expect_run 0 md gate run unit
expect_answer gates-green pass "unit passed"
