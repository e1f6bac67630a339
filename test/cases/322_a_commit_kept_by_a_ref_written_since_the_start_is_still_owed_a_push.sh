# Work kept by a ref other than a branch was read only where it was a
# tag whose commit this worktree's HEAD reflog names. A commit made in a
# linked worktree created since the start and tagged there (`git worktree
# add --detach`, commit, `git tag wip`, `git worktree remove`: its reflog
# went with it), or kept by a ref of the worker's own naming (`git
# update-ref refs/wip/c HEAD; git reset --hard HEAD~1`), read done. Any
# ref written since the start holding commits no branch held at the start
# and no remote holds is owed, packed since or not.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
# An unpushed commit tagged before the start (its reflog lines dated
# then, the tag packed: a ref file of the start's own second would be
# read as written since) is inherited, not counted.
(
  export GIT_COMMITTER_DATE="2001-01-01T00:00:00Z"
  git checkout -q --detach
  echo old > old.rs
  git add old.rs
  git commit -qm "old spike"
  git tag old-spike
  git checkout -q main
  git pack-refs --all
)
expect_run 0 md start "a feature"
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1
# git notes annotate; they keep no work.
git notes add -m "reviewed" HEAD
expect_answer pushed "pass" "."

git worktree add -q --detach "$case_root/side"
(cd "$case_root/side" && echo w > w.rs && git add w.rs && git commit -qm "side work" && git tag wip)
git worktree remove "$case_root/side"
expect_open pushed "refs/tags/wip" "owed"
expect_advice pushed
expect_run 10 md check
git tag -d wip > /dev/null
expect_answer pushed "pass" "."

echo c > c.rs
git add c.rs
git commit -qm "parked work"
git update-ref refs/wip/c HEAD
git reset -q --hard HEAD~1
expect_open pushed "refs/wip/c" "owed"
# Packed since the start, it is read all the same.
git pack-refs --all
expect_open pushed "refs/wip/c" "owed"
expect_run 10 md check
git update-ref -d refs/wip/c
expect_answer pushed "pass" "."
expect_run 0 md check
