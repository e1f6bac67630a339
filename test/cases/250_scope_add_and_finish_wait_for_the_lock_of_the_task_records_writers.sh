# `scope add` rewrites the task record (read, change, write) under the
# ledger's lock, as every writer of the task's records does (todo, issue,
# bg), and `finish` archives and removes it under the same lock: while
# another writer holds it, neither writes, and `scope add` then keeps what
# that writer changed. (apps/majordomus-cli/src/commands/scope.rs)
source "$(dirname "$0")/../lib.sh" || exit 2

# running PID: the process runs (not ended, nor a zombie awaiting wait).
running() {
  local state
  state=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) && [ "$state" != Z ]
}

# wait_at_lock PID WHAT: waits until PID has the lock file open (it is
# waiting for the lock) or has ended; fails if it ended while the lock was
# held, having written without it. PID must not have inherited the
# holder's descriptor of the lock file.
wait_at_lock() {
  while running "$1" && ! ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'ledger\.lock$'; do
    sleep 0.02
  done
  running "$1" || fail "$2 ran to its end while another writer held the ledger's lock"
}

mkdir -p src docs lib
echo 'fn main() {}' > src/main.rs
echo '# docs' > docs/README.md
echo '// lib' > lib/mod.rs
commit_all "initial"
expect_run 0 md start "a greeting" --scope src
lock=.ai/local/state/ledger.lock
[ -f "$lock" ] || : > "$lock"

exec 9>>"$lock"
flock -x 9
# Started directly (so $! is majordomus) and without the holder's descriptor 9.
"$MAJORDOMUS" scope add docs 9>&- > "$case_root/scope.out" 2>&1 &
pid=$!
wait_at_lock "$pid" "scope add"
# The other writer, holding the lock, changes the record (and, as every
# writer of majordomus does, its copy in the git directory).
python3 - .ai/local/state/task.json .git/majordomus/task.json <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
record["scope"].append("lib")
for path in sys.argv[1:]:
    open(path, "w").write(json.dumps(record, indent=2) + "\n")
PY
flock -u 9
wait "$pid" || { out=$(cat "$case_root/scope.out"); fail "scope add failed once the lock was let go"; }
scope=$(json_get .ai/local/state/task.json '",".join(d["scope"])')
[ "$scope" = "src,lib,docs" ] || fail "scope add wrote over the other writer's change: the scope is $scope, not src,lib,docs"

flock -x 9
"$MAJORDOMUS" finish --outcome failed 9>&- > "$case_root/finish.out" 2>&1 &
pid=$!
wait_at_lock "$pid" "finish"
[ -f .ai/local/state/task.json ] || fail "finish removed the task record while another writer held the lock"
flock -u 9
exec 9>&-
wait "$pid" || { out=$(cat "$case_root/finish.out"); fail "finish failed once the lock was let go"; }
[ ! -e .ai/local/state/task.json ] || fail "finish left the task record"
