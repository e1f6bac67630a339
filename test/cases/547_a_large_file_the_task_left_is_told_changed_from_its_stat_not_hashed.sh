#!/usr/bin/env bash
# README, "What `check` reads": every file changed or untracked since the
# start was hashed whole at every `check`, to tell it from what the start
# found there: `truncate -s 2G src/big.bin` during the task (untracked, or
# written over a tracked file) made the first `check` take 17-35 s where
# `git status` takes 0.04 s, past the stop hook's 20 s budget (a stop that
# never finishes the read never fills the large files' cache either). A
# blob's id hashes its size, so a file whose size or mode is not what it is
# compared with is told changed from its stat; its content is hashed only
# where the start's record names the path (was it left as found?).
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README; mkdir -p src; echo a > src/a.txt
commit_all initial
with_origin; exempt_forge
commit_all pol; git push -q
expect_run 0 md start "t"

# Within 5 s (the hook's budget is 20 s; the reading is a stat).
quick_check() {
  local s took
  s=$(date +%s)
  set +e; out=$(timeout 20 "$MAJORDOMUS" check --json 2>&1); rc=$?; set -e
  took=$(( $(date +%s) - s ))
  [ "$rc" -ne 124 ] || fail "check did not answer in 20 s over $1"
  [ "$took" -le 5 ] || fail "check took ${took}s over $1"
}

truncate -s 2G src/big.bin
quick_check "an untracked 2 GB sparse file"
expect_open no-untracked "src/big.bin"
rm src/big.bin

truncate -s 2G src/a.txt
quick_check "a tracked file made 2 GB"
expect_open committed "src/a.txt"
git checkout -q -- src/a.txt

# The honest flow: the work committed and pushed still passes.
echo b >> src/a.txt
commit_all "the work"; git push -q
expect_answer committed pass ""
expect_answer no-untracked pass ""
