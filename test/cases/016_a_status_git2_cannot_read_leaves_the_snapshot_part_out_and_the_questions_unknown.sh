# A working tree whose status cannot be read (a file name that is not
# UTF-8) does not stop a task: start
# records it, leaving out the dirty and untracked paths and saying why,
# and check answers committed and no-untracked unknown, naming the reason,
# and exits 10, not 13.
source "$(dirname "$0")/../lib.sh"

mkdir -p src
echo 'fn a() {}' > src/lib.rs
commit_all "initial"

# A file name that is not UTF-8: named, its bytes escaped, so it can be found.
python3 -c 'import os; open(os.fsencode("src/caf\u00e9-") + b"\xff.txt", "w").write("x\n")'
expect_run 0 md start "a task beside an odd name"
expect_contains "inherited: dirty not read, untracked not read"
expect_contains 'not read at the start: dirty and untracked paths (a path under'
expect_contains 'is not UTF-8: src/café-\xff.txt'
[ "$(json_get .ai/local/state/task.json '"dirty" in d["snapshot"] or "untracked" in d["snapshot"]')" = False ] ||
  fail "the snapshot recorded a part it could not read"
[ "$(json_get .ai/local/state/task.json 'sorted(d["snapshot"])')" = "['baseline_bytes', 'branches', 'gate_environment', 'stashes', 'unpushed', 'worktrees']" ] ||
  fail "the snapshot left out more than it could not read"
expect_run 10 md check
expect_contains "committed=unknown"
expect_contains "no-untracked=unknown"
expect_contains 'src/café-\xff.txt'
md finish --outcome blocked >/dev/null
