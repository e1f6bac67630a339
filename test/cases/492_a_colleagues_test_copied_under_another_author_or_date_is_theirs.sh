#!/usr/bin/env bash
# A colleague's commit adding a test, pushed to their branch or to the
# trunk and fetched since the start, copied under the task's own: with
# `git cherry-pick -n` and a commit of the task's, with `git cherry-pick`
# then `git commit --amend --reset-author`, or with `git rebase
# --ignore-date` over a pick or a `git pull --rebase`. The copy rule of
# test/cases/486 found the original by its author (name, address, time),
# which each of these changes: the colleague's test counted as the task's
# and regression-tested passed. A commit made here that holds what one a
# fetch brought (or a remote-tracking ref held at the start) changed a
# path to holds that one's work there, whoever it names its author; a
# pick amended away is read the same way.
source "$(dirname "$0")/../lib.sh" || exit 2

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
colleague_test() {
  (cd "$colleague" &&
    export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com GIT_COMMITTER_EMAIL=c@example.com &&
    git switch -q -C "$1" && mkdir -p tests && echo '#[test] fn c() {}' > tests/c.rs &&
    git add -A && git commit -q -m "colleague's test" && git push -q origin "$1")
}
my_fix() { echo "fn a() { fixed }" > src/lib.rs; commit_all "fix a"; }

# cherry-pick -n, then the task's own commit.
fresh nocommit
expect_run 0 md start "fix a"
my_fix
colleague_test wip
git fetch -q
git cherry-pick -n origin/wip > /dev/null
git commit -q -m "take the test"
git push -q origin main
expect_open regression-tested "test" owed

# cherry-pick, then the authorship reset.
fresh reset
expect_run 0 md start "fix a"
my_fix
colleague_test wip
git fetch -q
git cherry-pick origin/wip > /dev/null
git commit -q --amend --reset-author --no-edit
git push -q origin main
expect_open regression-tested "test" owed

# picked, then `git rebase --ignore-date` (a new author date).
fresh picked
expect_run 0 md start "fix a"
my_fix
colleague_test wip
git fetch -q
git cherry-pick origin/wip > /dev/null
sleep 1
git rebase -q --ignore-date HEAD~2
git push -q origin main
expect_open regression-tested "test" owed

# `git pull --rebase` over the colleague's trunk, then --ignore-date.
fresh pulled
expect_run 0 md start "fix a"
my_fix
colleague_test main
git pull -q --rebase origin main
sleep 1
git rebase -q --ignore-date HEAD~2
expect_open regression-tested "test" owed

# The task's own test beside the copy still counts.
mkdir -p tests && echo '#[test] fn mine() {}' > tests/mine.rs
commit_all "my test"
expect_answer regression-tested pass "tests/mine.rs"
