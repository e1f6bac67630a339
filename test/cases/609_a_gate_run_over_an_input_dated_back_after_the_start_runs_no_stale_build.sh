#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# 601 refused a gate run over an input the task changed and dated back
# before the start. A time set back to a moment after the start, before the
# last build, went on: the task runs the gate (make builds the test binary),
# breaks src/sum.c and dates it between the start and that build (`touch -d
# @T`, `touch -r` of a file written then, `cp -p` of a copy saved then, or
# `mv` of a file written then over it): make finds the binary newer, runs the
# one built from the right sum, and the gate is green over broken source
# (`make -B check` fails). `gate run` now also reads each changed input's
# change time, which only the kernel sets (to now, at every write and every
# change of times): a modification time older than it is named, nothing is
# run, no verdict recorded, and `touch -- PATH` is the way on.

# Written after the start, before the build: a stamp, a broken copy.
written_before_the_build() {
  sleep 1
  : > "$case_root/stamp"
  sed 's/a + b/a - b/' src/sum.c > "$case_root/sum.saved"
  cp "$case_root/sum.saved" "$case_root/sum.moved"
  T=$(date +%s)
}
make_gate_built_after written_before_the_build

# touch -d, to a time between the start and the build.
sed -i 's/a + b/a - b/' src/sum.c
touch -d "@$T" src/sum.c
refused_over_stale_sum
# touch -r of a file written between them.
touch -r "$case_root/stamp" src/sum.c
refused_over_stale_sum
# cp -p of a copy saved between them.
git checkout -q -- src/sum.c
cp -p "$case_root/sum.saved" src/sum.c
refused_over_stale_sum
# A file written between them, moved over it.
git checkout -q -- src/sum.c
mv "$case_root/sum.moved" src/sum.c
refused_over_stale_sum
commit_all "work"
expect_open gates-green "unit" "owed refused"
expect_run 10 md check
# What the commit holds fails its test.
expect_run 2 make -B check

# The remedy as written: make rebuilds, the test fails, and that counts.
expect_run 10 bash -c "touch -- src/sum.c && \"$MAJORDOMUS\" gate run unit"
expect_status gates-green refused

# The honest flow: the sum made right by a save that writes a new file and
# renames it over the old one (an editor's, `sed -i`'s), put away and back
# with `git stash`, run, green.
python3 -c "
import os
with open('src/sum.c.new', 'w') as f:
    f.write('int sum(int a, int b) { return a + b; }\n')
    f.flush()
    os.fsync(f.fileno())
os.replace('src/sum.c.new', 'src/sum.c')
"
git stash -q
git stash pop -q
expect_run 0 md gate run unit
expect_contains "verdict recorded"
commit_all "fixed"
expect_answer gates-green pass "unit passed"
