#!/usr/bin/env bash
# A submodule among a gate's inputs with nothing checked out is absent from
# the working tree, as a file a sparse checkout leaves out is
# (test/cases/300): the command saw an empty directory, not the recorded
# commit's files, so it is a line of its own in the hash. The task bumps
# lib to a commit the gate fails over, `git submodule deinit -f lib`, runs
# the gate (a pass over the empty lib/), and checks lib out again: the
# verdict is stale, not a pass. With lib still deinitialised the pass is
# owed, naming lib, since the task changed it and the run never saw it. Run
# over lib checked out, the gate fails and the failure counts; the honest
# fix passes.
source "$(dirname "$0")/../lib.sh" || exit 2

export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
git init -q --bare -b main "$case_root/lib.git"
git clone -q "$case_root/lib.git" "$case_root/seed" 2> /dev/null
(cd "$case_root/seed" && echo good > state && git add state && git commit -q -m lib && git push -q origin HEAD:main)
mkdir -p .ai/repo tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "! grep -rqs bad lib"
inputs = ["**"]
TOML
exempt_forge
commit_all "initial"
with_origin
git submodule --quiet add ../lib.git lib
commit_all "lib"
git push -q origin main
expect_run 0 md start "bump lib"

# lib's new commit, which the gate fails over, taken in and pushed.
(cd "$case_root/seed" && echo bad > state && git commit -qam bad && git push -q origin HEAD:main)
(cd lib && git pull -q origin main)
echo t > tests/a.rs
commit_all "bump lib"
git push -q origin main

git submodule deinit -q -f lib
expect_run 0 md gate run unit
# Still deinitialised: the task changed lib, and the run never saw it.
expect_open gates-green "unit .*submodule not checked out.*lib" "owed"
expect_advice gates-green
# Checked out again: the run over the empty directory is not its verdict.
git submodule update -q --init lib
expect_open gates-green "unit" "owed"
expect_run 10 md gate run unit
expect_open gates-green "unit failed" "refused"

# The honest flow: lib set right, the gate run over it checked out.
(cd "$case_root/seed" && echo good > state && git commit -qam good && git push -q origin HEAD:main)
(cd lib && git pull -q origin main)
commit_all "lib made good"
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green pass "unit passed"
