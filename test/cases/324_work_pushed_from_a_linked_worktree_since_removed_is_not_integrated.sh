# The task makes a linked worktree on a new branch (`git worktree add -b
# x ../w`), commits there, pushes (`git push -u origin x`), removes the
# worktree and deletes the branch (a todo declared and done). HEAD is the
# start commit, which the trunk reaches, and this worktree's HEAD reflog
# names none of the work (the linked worktree's went with it), so
# integrated passed with the work on origin/x only. A remote-tracking ref
# a push from this repository moved since the start holds this
# repository's work: owed until the trunk holds it or the branch is
# deleted on the remote. A peer's push (a worktree there at the start,
# its branch holding the work) is its own.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git worktree add -q -b peer "$case_root/peer"
expect_run 0 md start "a feature"
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1
git worktree add -q -b x "$case_root/w"
(
  cd "$case_root/w"
  mkdir -p src tests
  echo w > src/w.rs
  echo t > tests/w.rs
  git add src tests
  git commit -qm "work in a side worktree"
  git push -q -u origin x
)
git worktree remove "$case_root/w"
git branch -q -D x
expect_open integrated "origin/x" "owed"
expect_run 10 md check

# Deleted on the remote, nothing is owed.
git push -q origin --delete x
expect_answer integrated "pass" "reaches HEAD"
expect_run 0 md check

# A peer's worktree, there at the start, pushing its own branch.
(
  cd "$case_root/peer"
  echo p > p.rs
  git add p.rs
  git commit -qm "the peer's work"
  git push -q -u origin peer
)
expect_answer integrated "pass" "reaches HEAD"
expect_run 0 md check
