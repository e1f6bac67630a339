# finish archives the task in the common git directory, not in the
# worktree: after git worktree remove, the archive is still there, and a
# new worktree at the same place names the task it left open when it starts.
source "$(dirname "$0")/../lib.sh" || exit 2

echo one > a.txt
commit_all "initial"
git worktree add -q -b side "$case_root/wt"
cd "$case_root/wt"
expect_run 0 md start "the side work"
echo "unfinished" > notes.txt
expect_run 0 md finish --outcome partial
cd "$repo"
git worktree remove --force "$case_root/wt"
[ ! -d "$case_root/wt" ] || fail "setup: the worktree is still there"
archives=$(ls "$(git rev-parse --git-common-dir)"/majordomus/archive/*.json 2>/dev/null | wc -l)
[ "$archives" -eq 1 ] || fail "expected the archive in the common git directory, found $archives"

git worktree add -q "$case_root/wt" side
cd "$case_root/wt"
echo "unfinished" > notes.txt
expect_run 0 md start "the side work, again"
expect_contains "previous task"
