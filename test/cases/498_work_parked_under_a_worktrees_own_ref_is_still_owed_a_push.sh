#!/usr/bin/env bash
# Git keeps refs/bisect, refs/rewritten and refs/worktree apart for each
# worktree (a linked one's in .git/worktrees/NAME/refs), and writes
# another's as `worktrees/NAME/refs/...` or `main-worktree/refs/...`. Only
# the common directory's refs and this worktree's refs/worktree were read,
# so a task in a linked worktree that committed, parked the commit under
# refs/bisect/keep, a peer's `worktrees/peer/refs/worktree/wip` or the
# main worktree's `main-worktree/refs/worktree/wip`, and reset read
# pushed. Every worktree's own refs are read as 327 reads refs: owed
# naming the ref; a peer's own work under its own ref is still its own.
source "$(dirname "$0")/../lib.sh" || exit 2

pushed_project
git worktree add -q --detach .worktrees/peer
git worktree add -q -b wt .worktrees/w
cd .worktrees/w
git branch -q --set-upstream-to origin/main
expect_run 0 md start "fix"
expect_run 0 md todo add "the fix"
expect_run 0 md todo done 1

# The peer's own work, parked under its own ref: the peer's, not owed here.
(cd ../peer && echo p > peer.txt && git add peer.txt && git commit -qm "the peer's work" \
  && git update-ref refs/worktree/mine HEAD && git reset -q --hard HEAD~1)
expect_answer pushed "pass" "."

for ref in refs/bisect/keep refs/worktree/wip worktrees/peer/refs/worktree/wip \
  worktrees/peer/refs/bisect/keep main-worktree/refs/worktree/wip main-worktree/refs/rewritten/x; do
  echo "$ref" > parked.rs
  git add parked.rs
  git commit -qm "parked under $ref"
  git update-ref "$ref" HEAD
  git reset -q --hard HEAD~1
  expect_open pushed "${ref//\//.}" "owed"
  expect_advice pushed
  case "$(remedy_of pushed)" in *"git -C PATH update-ref -d REF"*) ;; *) fail "the remedy names no way to delete another worktree's ref" ;; esac
  # Git deletes another worktree's ref only from that worktree.
  case "$ref" in
    worktrees/peer/*) git -C ../peer update-ref -d "${ref#worktrees/peer/}" ;;
    main-worktree/*) git -C ../.. update-ref -d "${ref#main-worktree/}" ;;
    *) git update-ref -d "$ref" ;;
  esac
  expect_answer pushed "pass" "."
done
expect_run 0 md check
