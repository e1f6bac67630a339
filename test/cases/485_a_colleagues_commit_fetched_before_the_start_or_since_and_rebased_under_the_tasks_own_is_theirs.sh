#!/usr/bin/env bash
# README, "Whose work it is": a commit a remote-tracking ref held at the
# start, or a fetch brought since, is not the task's, whichever way it
# comes under the task's own commits. A task commits its fix without a
# test; a colleague's commit adds tests/c.rs. Fetched before `start` (an
# editor's auto-fetch an hour before), then `git rebase origin/main`, or
# `git pull --rebase` and `git push`: `regression-tested` passed ("The
# change touches 1 test path: tests/c.rs"), done: complete, as only a
# fetch line since the start said a commit was another's. The same
# colleague's commit fetched since and rebased under the task's (`git pull
# --rebase`, `git fetch` then `git rebase origin/main`) is theirs too; the
# task's own test, rebased over a colleague's commit, still counts.
source "$(dirname "$0")/../lib.sh" || exit 2

# fresh NAME: a repository of its own with its origin and a colleague's
# clone ($colleague), src/lib.rs committed and pushed.
fresh() {
  cd "$case_root"
  git init -q -b main "$1" && cd "$1"
  exempt_forge
  mkdir -p src && echo "fn a() {}" > src/lib.rs
  commit_all "initial"
  git init -q --bare -b main "$case_root/$1.git"
  git remote add origin "$case_root/$1.git"
  git push -q -u origin main
  git remote set-head origin main
  colleague=$case_root/$1-colleague
  git clone -q "$case_root/$1.git" "$colleague"
}

# colleague_test: the colleague commits tests/c.rs and pushes it.
colleague_test() {
  (cd "$colleague" &&
    export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com \
      GIT_COMMITTER_EMAIL=c@example.com &&
    git pull -q --rebase && mkdir -p tests && echo '#[test] fn c() {}' > tests/c.rs &&
    git add -A && git commit -q -m "colleague's test" && git push -q origin main)
}

# my_fix: the task's fix, committed, no test.
my_fix() {
  echo "fn a() { fixed }" > src/lib.rs
  commit_all "fix a"
}

# Fetched an hour before the start: no reflog line since says so.
fresh early
colleague_test
GIT_COMMITTER_DATE="@$(($(date +%s) - 3600)) +0000" git fetch -q
expect_run 0 md start "fix a"
my_fix
git rebase -q origin/main
expect_open regression-tested "None of the 1 path changed since the start is a test path" owed
git pull -q --rebase
git push -q origin main
expect_open regression-tested "None of the 1 path changed since the start is a test path" owed
judge_answer measurable pass "HEAD holds 1 commit made since the start \(and 1 commit a fetch brought"

# Fetched since the start, under the task's commit: theirs.
fresh pulled
expect_run 0 md start "fix a"
my_fix
colleague_test
git pull -q --rebase
git push -q origin main
expect_open regression-tested "None of the 1 path changed since the start is a test path" owed

fresh rebased
expect_run 0 md start "fix a"
my_fix
colleague_test
git fetch -q && git rebase -q origin/main
git push -q origin main
expect_open regression-tested "None of the 1 path changed since the start is a test path" owed

# The task's own test, rebased over a colleague's commit fetched before
# the start: the task's.
fresh honest
colleague_test
GIT_COMMITTER_DATE="@$(($(date +%s) - 3600)) +0000" git fetch -q
expect_run 0 md start "fix a"
my_fix
mkdir -p tests && echo '#[test] fn a_is_fixed() {}' > tests/a.rs
commit_all "test a"
git pull -q --rebase
git push -q origin main
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
expect_answer regression-tested pass "The change touches 1 test path: tests/a.rs\."
