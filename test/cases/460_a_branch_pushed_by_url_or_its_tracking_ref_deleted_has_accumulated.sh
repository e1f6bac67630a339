#!/usr/bin/env bash
# A push by URL (`git push ../origin.git side:refs/heads/backup/side`)
# writes no remote-tracking ref, and `git branch -dr origin/feat` deletes
# the one a push wrote: with the local branch deleted and nothing fetched,
# nothing here says the remote keeps the branch. A remote on this machine
# is read itself: each of its branches that no remote-tracking ref here
# stands for (the start's refspecs map it nowhere, or onto a ref that does
# not exist here) whose tip is a commit this worktree made since the start
# has accumulated. A colleague's branch pushed to origin from another
# clone and never fetched is not the task's, and is not named.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "a change"

# Pushed by URL, the local branch deleted, never fetched.
git checkout -q -b side
echo wip > wip.txt
commit_all "wip"
git push -q "$case_root/origin.git" side:refs/heads/backup/side
git checkout -q main
git branch -q -D side
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "the change"
git push -q origin main
[ -z "$(git for-each-ref refs/remotes/origin/backup)" ] || fail "setup: a ref was written for backup/side"

# A colleague's branch of their own, pushed from another clone, not fetched.
git clone -q "$case_root/origin.git" "$case_root/colleague"
(cd "$case_root/colleague" && git checkout -q -b theirs && echo c > c.txt && git add c.txt &&
  git -c user.name=Colleague -c user.email=c@example.com commit -q -m theirs && git push -q origin theirs)

expect_open nothing-accumulated "origin's branch backup/side" owed
case "$(evidence_of nothing-accumulated)" in *theirs*) fail "a colleague's branch named: $(evidence_of nothing-accumulated)" ;; esac

# Pushed with its ref, then the ref deleted here: the remote still has it.
git checkout -q -b feat
echo f > f.txt
commit_all "feat"
git push -q -u origin feat
git checkout -q main
git branch -q -D feat
git branch -q -dr origin/feat
expect_open nothing-accumulated "origin's branch feat" owed

git push -q origin --delete backup/side feat
expect_answer nothing-accumulated pass ""
case "$(evidence_of nothing-accumulated)" in *theirs*) fail "a colleague's branch named: $(evidence_of nothing-accumulated)" ;; esac
