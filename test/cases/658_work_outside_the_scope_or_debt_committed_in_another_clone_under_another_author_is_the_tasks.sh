#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# README, "Whose work it is": the commits a fetch brought are others', set
# apart from the change. 650 closed it for the policy file; the same hole
# stayed open for `scoped`, `no-new-debt` and `markers-live`: the task
# clones origin again on this machine, changes a path outside its scope
# and adds a lint baseline entry there, commits with `git commit --author
# "Colleague <c@example.com>"` (the committer stays this repository's own
# address), pushes, and `git pull --rebase` here. The commit was read as
# the colleague's: scoped and no-new-debt passed. A commit a fetch brought
# that was committed under this repository's own address was committed in
# another clone by the task; a colleague's own commit (their address as
# author and as committer), pulled and rebased over, stays theirs.

# fresh NAME: a repository with docs outside the scope src, a baseline,
# its origin NAME.git, the task started, and a second clone NAME-mine.
fresh() {
  mkdir -p "$case_root/$1" && cd "$case_root/$1" && git init -q -b main
  exempt_forge
  mkdir -p docs src
  echo d > docs/x.md
  echo 'fn a() {}' > src/a.rs
  printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
  commit_all "initial"
  git init -q --bare -b main "$case_root/$1.git"
  git remote add origin "$case_root/$1.git"
  git push -q -u origin main
  git remote set-head origin main
  expect_run 0 md start "the src work" --scope src
  git clone -q "$case_root/$1.git" "$case_root/$1-mine"
}
# outside: in the second clone, docs changed and a lint entry added.
outside() {
  echo 'more docs' >> docs/x.md
  printf 'src/lib.rs: unwrap\n' >> .ai/repo/lint-baseline.txt
}
# work: the task's own commit in scope, rebased over the trunk, pushed.
work() {
  echo 'fn a() { 1 }' > src/a.rs
  commit_all "fix a"
  git pull -q --rebase
  git push -q origin main
}

# 1. `git commit --author` in a second clone, under the configured address.
fresh a
(cd "$case_root/a-mine" && outside &&
  git commit -q -a --author "Colleague <c@example.com>" -m "docs and a lint entry" && git push -q origin main)
[ "$(git -C "$case_root/a-mine" log -1 --format=%ae/%ce)" = "c@example.com/case@example.com" ] ||
  fail "setup: the commit is not the colleague's authored and this address's committed"
work
grep -q 'src/lib.rs: unwrap' .ai/repo/lint-baseline.txt || fail "setup: the entry was not pulled"
expect_open scoped "docs/x.md"
expect_also no-new-debt "src/lib.rs: unwrap"
expect_run 10 md check

# The honest way: a colleague's own commit (their address as author and
# as committer) pulled and rebased over is theirs: both pass.
fresh b
(cd "$case_root/b-mine" && outside &&
  GIT_COMMITTER_NAME=Colleague GIT_COMMITTER_EMAIL=c@example.com \
    git commit -q -a --author "Colleague <c@example.com>" -m "docs and a lint entry" && git push -q origin main)
work
grep -q 'src/lib.rs: unwrap' .ai/repo/lint-baseline.txt || fail "setup: the entry was not pulled"
expect_answer scoped pass "."
expect_answer no-new-debt pass "No entry was added"
