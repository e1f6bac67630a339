#!/usr/bin/env bash
# README, "Whose work it is": a commit the task makes that copies another's
# (`git cherry-pick` of a colleague's commit a fetch brought, or that a
# remote-tracking ref held at the start) keeps the colleague's author, and
# where it holds what theirs holds, it holds their work. A task commits its
# fix without a test, fetches a colleague's commit adding tests/c.rs and
# cherry-picks it: `regression-tested` passed ("The change touches 1 test
# path: tests/c.rs"), the pick read as a commit the task made. A test the
# task writes itself after the pick still counts.
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
    mkdir -p tests && echo '#[test] fn c() {}' > tests/c.rs &&
    git add -A && git commit -q -m "colleague's test" && git push -q origin main)
}

# my_fix: the task's fix, committed, no test.
my_fix() {
  echo "fn a() { fixed }" > src/lib.rs
  commit_all "fix a"
}

# Fetched since the start, then picked.
fresh since
expect_run 0 md start "fix a"
my_fix
colleague_test
git fetch -q
git cherry-pick origin/main > /dev/null
expect_open regression-tested "None of the 1 path changed since the start is a test path" owed
judge_answer measurable pass "HEAD holds 1 commit made since the start \(and 1 commit a fetch brought"

# The task's own test, beside the pick: the task's.
mkdir -p tests && echo '#[test] fn a_is_fixed() {}' > tests/a.rs
commit_all "test a"
expect_answer regression-tested pass "The change touches 1 test path: tests/a.rs\."

# Held by origin/main at the start (fetched an hour before), then picked.
fresh held
colleague_test
GIT_COMMITTER_DATE="@$(($(date +%s) - 3600)) +0000" git fetch -q
expect_run 0 md start "fix a"
my_fix
git cherry-pick origin/main > /dev/null
expect_open regression-tested "None of the 1 path changed since the start is a test path" owed
