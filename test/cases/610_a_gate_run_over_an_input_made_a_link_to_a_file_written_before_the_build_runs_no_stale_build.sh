#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# make and cargo read a source through a symbolic link: its time is the
# file it leads to. A task that writes a broken sum beside the source (or
# outside the repository), runs the gate (make builds the test binary), then
# makes src/sum.c a link to that file leaves the binary newer than what the
# link leads to: `make check` ran the one built from the right sum, green
# over broken source (`make -B check` fails). 601 and 609 read the link's
# own times and skipped it, not a regular file. `gate run` now reads a link
# through: the modification time of the file it leads to, against the later
# of the two change times (the link's is when it was made).

# Broken sums written before the build: beside the source, and outside.
written_before_the_build() {
  sed 's/a + b/a - b/' src/sum.c > src/alt.c
  sed 's/a + b/a - b/' src/sum.c > "$case_root/sum.outside"
}
make_gate_built_after written_before_the_build

# A link to a file outside the repository, written before the build.
ln -sf "$case_root/sum.outside" src/sum.c
refused_over_stale_sum
# A link to a file beside it, written before the build; committed.
ln -sf alt.c src/sum.c
refused_over_stale_sum
commit_all "work"
expect_open gates-green "unit" "owed refused"
expect_run 10 md check
expect_run 2 make -B check

# The remedy as written: touch dates the file the link leads to, make
# rebuilds, the test fails, and that counts.
expect_run 10 bash -c "touch -- src/sum.c && \"$MAJORDOMUS\" gate run unit"
expect_status gates-green refused

# The honest flow: the sum the link leads to made right, run, green.
sed -i 's/a - b/a + b/' src/alt.c
commit_all "fixed"
expect_run 0 md gate run unit
expect_answer gates-green pass "unit passed"
