#!/usr/bin/env bash
# A commit parked under a ref git's own tools write (`git update-ref
# refs/notes/wip HEAD`), or under a remote-tracking ref written by hand
# (refs/remotes/origin/wip), then `git reset --hard HEAD~1`, counted only
# where HEAD's reflog named it (cases 327, 347). It named nothing with
# `core.logAllRefUpdates` off from before the start (.git/logs/HEAD never
# exists), after `git reflog delete HEAD@{0}` of every line since the
# start (the start's mark left intact, so the reflog did not read as
# rewritten), or for a commit HEAD never pointed at (`git commit-tree`):
# the task read done with its work on no remote. A loose commit written
# since the start under the repository's own address (cases 435, 443) is
# this worktree's whatever HEAD's reflog says: owed, naming the ref. A
# note (`git notes add`, a commit whose tree holds only notes) is still no
# work, and a colleague's commits fetched are still theirs.
source "$(dirname "$0")/../lib.sh" || exit 2

git config core.logAllRefUpdates false
start_on_origin
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1
git notes add -m "reviewed" HEAD
expect_answer pushed "pass" "origin/main"

for ref in refs/notes/wip refs/bisect/keep refs/remotes/origin/wip; do
  echo "$ref" > parked.rs
  git add parked.rs
  git commit -qm "parked under $ref"
  git update-ref "$ref" HEAD
  git reset -q --hard HEAD~1
  test ! -e .git/logs/HEAD || fail "reflogs are off: no HEAD reflog"
  expect_open pushed "${ref#refs/remotes/}" "owed"
  expect_run 10 md check
  git update-ref -d "$ref"
  expect_answer pushed "pass" "origin/main"
done

# A commit HEAD never pointed at, made with git commit-tree.
echo tree > made.rs
git add made.rs
made=$(git commit-tree -p HEAD -m "made by hand" "$(git write-tree)")
git reset -q --hard
git update-ref refs/notes/wip "$made"
expect_open pushed "refs/notes/wip" "owed"
git update-ref -d refs/notes/wip

# A note added on top of the parked work: the notes ref's tip holds the
# project's files, not only notes.
echo under > under.rs
git add under.rs
git commit -qm "under a note"
git update-ref refs/notes/commits HEAD
git reset -q --hard HEAD~1
git notes add -f -m "hidden" HEAD
expect_open pushed "refs/notes/commits" "owed"
git update-ref -d refs/notes/commits
git notes add -m "reviewed again" HEAD
expect_answer pushed "pass" "origin/main"

# A colleague's branch fetched with reflogs off is theirs.
git clone -q "$case_root/origin.git" "$case_root/other"
(cd "$case_root/other" && export GIT_AUTHOR_EMAIL=c@example.com GIT_COMMITTER_EMAIL=c@example.com &&
  echo c > c.rs && git add c.rs && git commit -qm c && git push -q origin HEAD:colleague)
git fetch -q origin
expect_answer pushed "pass" "origin/main"
expect_run 0 md check

# Reflogs on: the lines since the start deleted with `git reflog delete`,
# the line the start marked as the reflog's end left in place.
git init -q -b main "$case_root/repo2"
cd "$case_root/repo2"
echo base > README
exempt_forge
commit_all "initial"
git init -q --bare -b main "$case_root/origin2.git"
git remote add origin "$case_root/origin2.git"
git push -q -u origin main
git remote set-head origin main
expect_run 0 md start "a feature"
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1
for ref in refs/notes/wip refs/remotes/origin/wip; do
  commit_a_feature
  git update-ref "$ref" HEAD
  git reset -q --hard HEAD~1
  git reflog delete HEAD@{0}
  git reflog delete HEAD@{0}
  expect_open pushed "${ref#refs/remotes/}" "owed"
  expect_run 10 md check
  git update-ref -d "$ref"
  expect_answer pushed "pass" "origin/main"
done
git notes add -m "reviewed" HEAD
expect_answer pushed "pass" "origin/main"
expect_run 0 md check

# A pushed commit's message told again (`git replace --edit`: a
# replacement with the same tree and parents) keeps no work of its own;
# one whose tree differs does.
commit_a_feature
git push -q origin main
pushed=$(git rev-parse HEAD)
retold=$(git commit-tree "$pushed^{tree}" -p "$pushed^" -m "the feature, its message told again")
git replace "$pushed" "$retold"
expect_answer pushed "pass" "origin/main"
git replace -d "$pushed"
echo more > more.txt
git add more.txt
tree=$(git write-tree)
git rm -q --cached more.txt
rm more.txt
changed=$(git commit-tree "$tree" -p "$pushed^" -m "the feature, and more")
git replace "$pushed" "$changed"
expect_open pushed "refs/replace" "owed"
