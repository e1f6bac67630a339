#!/usr/bin/env bash
# The work of test/cases/435 (a linked worktree's commit, squash-merged on
# the forge by another address, the worktree and branch removed, pulled
# back), then one more commit of the task's on HEAD in the same second as
# the worktree's, under the same author. A commit rewritten onto HEAD
# (`git pull --rebase`, an amend) keeps its author and author date, so
# the worktree's commit was read as rewritten onto HEAD by the second
# one, and what arrived as a colleague's: its debt entry and its paths
# set apart, `no-new-debt` passed. An agent commits twice in a second
# easily. A rewrite keeps the message too; two commits of one author in
# one second with different messages are two commits.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests docs
exempt_forge
echo 'fn a() {}' > src/lib.rs
echo '#[test] fn t() {}' > tests/t.rs
echo doc > docs/x.md
echo 'old-entry' > .ai/repo/lint-baseline.txt
commit_all "initial"
with_origin
git clone -q "$case_root/origin.git" "$case_root/forge"
expect_run 0 md start "fix the tests" --scope tests

export GIT_AUTHOR_DATE="$(date -R)"
git worktree add -q "$case_root/wt-feat" -b feat
(
  cd "$case_root/wt-feat"
  echo 'rewritten by the task' > docs/x.md
  echo 'new-debt-entry' >> .ai/repo/lint-baseline.txt
  git commit -q -am "task work"
  git push -q -u origin feat
)
(
  cd "$case_root/forge"
  export GIT_AUTHOR_EMAIL=forge@example.com GIT_COMMITTER_EMAIL=forge@example.com
  unset GIT_AUTHOR_DATE
  git fetch -q
  git merge -q --squash origin/feat > /dev/null
  git commit -q -m "task work (#1)"
  git push -q origin main
  git push -q origin --delete feat
)
git worktree remove "$case_root/wt-feat"
git branch -q -D feat
git pull -q --prune
echo '#[test] fn t2() {}' >> tests/t.rs
git commit -q -am "one more test"
git push -q

expect_open no-new-debt "new-debt-entry" refused
expect_open scoped "docs/x.md" refused
