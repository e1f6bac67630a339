# A working tree whose status cannot be read (an index neither reader can
# read) does not stop a task: start records it, leaving out the dirty and
# untracked paths (and what governed their reading) and saying why, and
# check answers committed and no-untracked unknown, naming the reason, and
# exits 10, not 13. (A file name that is not UTF-8 is read like any other:
# test/cases/150.)
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src
echo 'fn a() {}' > src/lib.rs
commit_all "initial"

printf 'not an index' > .git/index
expect_run 0 md start "a task beside a broken index"
expect_contains "inherited: dirty not read, untracked not read"
expect_contains 'not read at the start: dirty and untracked paths ('
expect_contains 'index'
[ "$(json_get .ai/local/state/task.json '"dirty" in d["snapshot"] or "untracked" in d["snapshot"] or "reading" in d["snapshot"]')" = False ] ||
  fail "the snapshot recorded a part it could not read"
[ "$(json_get .ai/local/state/task.json '{"baseline_bytes", "branches", "gate_environment", "stashes", "unpushed", "worktrees", "policy", "remotes", "remote_refs", "trunk", "gone_upstreams"} <= set(d["snapshot"])')" = True ] ||
  fail "the snapshot left out more than it could not read"
expect_run 10 md check
expect_contains "committed=unknown"
expect_contains "no-untracked=unknown"
expect_contains 'index'
md finish --outcome blocked >/dev/null
