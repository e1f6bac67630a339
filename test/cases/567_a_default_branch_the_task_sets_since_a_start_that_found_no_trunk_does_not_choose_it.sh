#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# Where the start recorded no trunk (origin/HEAD unset and both origin/main
# and origin/master there, 544; or no conventional name at all), the trunk
# was found at each check from origin/HEAD as it is now: `git remote
# set-head origin feat`, the task's own pushed branch, made it the trunk,
# integrated passed and nothing-accumulated counted feat as the trunk's,
# offering `git branch -D master`. A default branch set since such a start
# is taken only where it names a branch the start held, and, where the
# start held both conventional names, one of them.

# A remote with master and main (main since deleted there, its ref kept
# here), or with develop alone; made by init, remote add and fetch.
remote_with() {
  git init -q --bare -b "$1" "$case_root/$2.git"
  git init -q -b "$1" "$case_root/seed-$2"
  (
    cd "$case_root/seed-$2" || exit 2
    echo a > lib.js
    exempt_forge
    commit_all "initial"
    git push -q "$case_root/$2.git" "$1"
    [ -z "${3-}" ] || git push -q "$case_root/$2.git" "$1:$3"
  )
  git init -q -b "$1" "$case_root/$2"
  cd "$case_root/$2" || exit 2
  git remote add origin "$case_root/$2.git"
  git config remote.origin.followRemoteHEAD never
  git fetch -q origin
  git reset -q --hard "origin/$1"
  [ -z "${3-}" ] || git --git-dir="$case_root/$2.git" branch -q -D "$3"
  git fetch -q origin
  ! git rev-parse -q --verify refs/remotes/origin/HEAD > /dev/null || fail "origin/HEAD is set"
}

# 1. Undecided at the start; the task names its own branch the default.
remote_with master one main
fix_lib_js_on_feat
git remote set-head origin feat > /dev/null
expect_answer integrated "unknown" "origin/HEAD names origin/feat now, a default branch set since the task's start, where the start held origin/main and origin/master"
case "$(remedy_of integrated)" in *"git remote set-head origin --auto"*"origin/main or origin/master"*) ;; *) out=$(remedy_of integrated); fail "expected set-head --auto naming the two" ;; esac
expect_also nothing-accumulated "branch feat"
case "$(remedy_of nothing-accumulated)" in *"branch -D master"*) out=$(remedy_of nothing-accumulated); fail "master offered for deletion" ;; esac
# The remote's own answer: origin/master, and the work is not on it.
git remote set-head origin --auto > /dev/null
expect_answer integrated "owed" "The trunk origin/master"

# 2. No conventional name at all: develop alone, no origin/HEAD, no trunk
# at the start. Naming the task's branch is not taken; naming develop,
# which the start held, is.
cd "$case_root"
remote_with develop two
fix_lib_js_on_feat
git remote set-head origin feat > /dev/null
expect_answer integrated "unknown" "origin/HEAD names origin/feat now, a default branch set since the task's start"
git remote set-head origin develop > /dev/null
expect_answer integrated "owed" "The trunk origin/develop"
land_feat_on develop
expect_answer integrated "pass" "origin/develop"
