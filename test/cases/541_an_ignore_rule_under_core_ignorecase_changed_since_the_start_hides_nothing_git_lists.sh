#!/usr/bin/env bash
# core.ignoreCase changed since the start, either way, so that an ignore
# rule that held at the start matches otherwise: `*.log` then `!keep.log`
# re-includes the task's build/KEEP.log once case is ignored (turned on
# since), and `/Build/` no longer ignores build/ once it is not (turned off
# since, on a repository copied from macOS); under the new value `.GIT/`
# is no longer passed over as `.git`. git status lists each file, and the
# reading kept the start's value for both views of the ignore rules, so
# no-untracked passed. The rule (README, question 5): a file is ignored by
# the rules that held at the start and by git's now, each view matching
# names by its own core.ignoreCase (the start's for the held rules, git's
# now for git's); the fold of untracked names onto tracked ones keeps the
# start's value (test/cases/162, 514). The honest flow: the work committed,
# a file both views ignore stays ignored, and no-untracked passes.
source "$(dirname "$0")/../lib.sh" || exit 2

lists() { git -c core.fsmonitor=false status --porcelain=v2 -uall | grep -q -- "$1"; }

# Turned on since: the negation now lets the task's file in.
exempt_forge
printf '*.log\n!keep.log\n' > .gitignore
echo 'read me' > README.md
commit_all "initial"
expect_run 0 md start "a build log to keep"
mkdir build
echo 'the task work' > build/KEEP.log
echo 'noise' > build/other.log
git config core.ignoreCase true
lists 'build/KEEP.log' || fail "setup: git does not list build/KEEP.log"
lists 'build/other.log' && fail "setup: git lists build/other.log"
expect_open no-untracked "build/KEEP.log" owed
expect_not_contains "build/other.log"
git add build/KEEP.log
git commit -q -m "keep the build log"
expect_answer no-untracked pass "No untracked"

# Turned off since: the rule no longer ignores the directory, nor is .GIT
# passed over as .git.
git init -q -b main "$case_root/copied"
cd "$case_root/copied"
git config core.ignoreCase true
exempt_forge
printf '/Build/\n' > .gitignore
echo 'read me' > README.md
commit_all "initial"
expect_run 0 md start "an output"
mkdir build .GIT
echo 'the task work' > build/out.txt
git config core.ignoreCase false
lists 'build/out.txt' || fail "setup: git does not list build/out.txt"
expect_open no-untracked "build/out.txt" owed
echo 'more work' > .GIT/notes.txt
lists '.GIT/notes.txt' || fail "setup: git does not list .GIT/notes.txt"
expect_open no-untracked "\.GIT/notes.txt" owed
rm -r .GIT
git add build/out.txt
git commit -q -m "the output"
expect_answer no-untracked pass "No untracked"
