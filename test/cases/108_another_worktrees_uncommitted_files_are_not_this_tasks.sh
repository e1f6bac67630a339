# A guard: parallel agents work in their own worktrees.
# Another worktree's uncommitted and untracked files are not this task's:
# committed and no-untracked pass here, and stay passing.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
git worktree add -q "$case_root/peer" -b peer
expect_run 0 md start "my own work"
echo 'a peer edit' >> "$case_root/peer/README"
echo 'a peer file' > "$case_root/peer/notes.txt"
echo 'fn a() {}' > a.rs
commit_all "mine"
expect_answer committed "pass" "."
judge_answer no-untracked "pass" "."
