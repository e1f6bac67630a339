# A task started in a linked worktree by a process that has since died is
# found by `sweep` from the main worktree, with where it started and what it
# left (uncommitted and untracked paths, commits, a stash, branches); the
# live task beside it is not reported as left behind, and sweep changes nothing.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
commit_all "initial"
wt="$case_root/wt"
git worktree add -q -b feature "$wt"

# Started on behalf of a process that then dies (a session killed).
sleep 300 &
session=$!
md -C "$wt" start "abandoned work" --owner-pid "$session" > /dev/null
kill "$session"
wait "$session" 2>/dev/null || true
# The work it left.
(
  cd "$wt"
  echo "committed, never pushed" > done.txt
  git add done.txt
  git commit -q -m "half the work"
  echo "stashed" >> README
  git stash push -q -m "wip in the worktree"
  echo "edited, never committed" >> README
  echo "scratch" > scratch.txt
  git branch leftover
)

# A live task in the main worktree, started through a one-command shell as
# an agent runs it: the owner is the process behind that shell, this script.
bash -c '"$0" start "live work"; exit 0' "$MAJORDOMUS" > /dev/null

before_wt=$(cd "$wt" && git status --porcelain && git stash list && git branch --list)
before_main=$(git status --porcelain)

expect_run 10 md sweep
expect_contains "left behind"
expect_contains '"abandoned work"'
expect_contains "no longer runs"
expect_contains "started:"
expect_contains "feature at"
expect_contains "uncommitted:  README"
expect_contains "untracked:    scratch.txt"
expect_contains "stash@{0}"
expect_contains "leftover"
expect_contains "check there:"
expect_contains "committed=owed"
expect_contains '"live work"'
expect_contains "still runs"
expect_contains "1 left behind"

# sweep --json says the same, as data.
expect_run 10 md sweep --json
python3 - "$out" "$wt" <<'PY'
import json, os, sys
doc = json.loads(sys.argv[1])
by_state = {w["state"]: w for w in doc["worktrees"]}
gone = by_state["gone"]
assert os.path.realpath(gone["path"]) == os.path.realpath(sys.argv[2]), gone["path"]
assert gone["task"]["task"] == "abandoned work", gone["task"]
left = gone["left"]
assert left["uncommitted"] == ["README"], left
assert left["untracked"] == ["scratch.txt"], left
assert len(left["unpushed"]) == 1, left
assert any("wip in the worktree" in s for s in left["stashes"]), left
assert "leftover" in left["branches"] and "main" not in left["branches"], left
assert by_state["live"]["task"]["task"] == "live work"
assert doc["gone"] == 1
PY

# It changed nothing.
[ "$before_wt" = "$(cd "$wt" && git status --porcelain && git stash list && git branch --list)" ] || fail "sweep changed the worktree"
[ "$before_main" = "$(git status --porcelain)" ] || fail "sweep changed the main worktree"
[ -f "$wt/.ai/local/state/task.json" ] || fail "sweep removed the dead task's record"

# Once the dead task is finished there, nothing is left behind.
expect_run 0 md -C "$wt" finish --outcome failed
expect_run 0 md sweep
expect_contains "0 left behind"
