#!/usr/bin/env bash
# A repository made by `git init`, `git remote add origin URL` and `git
# fetch` (not by a clone) has no origin/HEAD. Its remote's trunk is master;
# it had a main once, deleted there since, and the origin/main fetched
# then outlives it here until a `git fetch --prune`. The trunk was taken by
# its conventional name, main first: integrated was read against the dead
# origin/main (owed for work pushed onto master, for ever), and where the
# task worked on master, nothing-accumulated offered `git switch --detach
# origin/main && git branch -d master`, the live trunk's branch. Where
# origin/HEAD names neither and both origin/main and origin/master exist,
# no trunk is taken by its name: integrated answers unknown naming both,
# with `git remote set-head origin --auto` as the way out (a local master
# tracking origin/master does not decide: a remote that renamed its master
# to main leaves the same here).
source "$(dirname "$0")/../lib.sh" || exit 2

# The remote: master and main, the policy exempting the forge.
git init -q --bare -b master "$case_root/origin.git"
git checkout -q -b master
echo a > lib.js
exempt_forge
commit_all "initial"
git push -q "$case_root/origin.git" master master:main
cd "$case_root"
rm -rf repo

# A repository made by init, remote add and fetch; the remote's main
# deleted there since, fetched without --prune.
init_and_fetch() {
  git init -q -b master "$case_root/$1"
  cd "$case_root/$1"
  git remote add origin "$case_root/origin.git"
  # As git before 2.48 fetched: no origin/HEAD made by the fetch.
  git config remote.origin.followRemoteHEAD never
  git --git-dir="$case_root/origin.git" branch -q -f main master
  git fetch -q origin
  git reset -q --hard origin/master
  git --git-dir="$case_root/origin.git" branch -q -D main
  git fetch -q origin
  git rev-parse -q --verify refs/remotes/origin/main > /dev/null || fail "origin/main was pruned"
  ! git rev-parse -q --verify refs/remotes/origin/HEAD > /dev/null || fail "origin/HEAD is set"
}

# 1. master tracks nothing: nothing tells the two apart. A task on a
# branch off master, pushed.
init_and_fetch one
fix_lib_js_on_feat
expect_answer integrated "unknown" "origin/HEAD .*is not set.*origin/main and origin/master both exist"
case "$(remedy_of integrated)" in *"git remote set-head origin --auto"*) ;; *) out=$(remedy_of integrated); fail "expected set-head as the way out" ;; esac
expect_also nothing-accumulated "branch feat"

# The honest way: ask the remote for its HEAD; the trunk is origin/master,
# and the work, landed there and its branch removed, is done.
git remote set-head origin --auto > /dev/null
expect_answer integrated "owed" "The trunk origin/master \(the remote's default branch"
land_feat_on master
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"

# 2. master tracks origin/master, and the task works on master itself,
# pushed: that says nothing of which is the trunk (a remote that renamed
# its master to main leaves the same here), so integrated is still
# unknown, and nothing offers to delete master.
init_and_fetch two
git branch -q -u origin/master master
expect_run 0 md start "fix"
echo d > lib.js
mkdir -p tests && echo 'test d' > tests/test_lib.js
commit_all "fix"
git push -q origin master
expect_answer integrated "unknown" "origin/main and origin/master both exist"
judge_answer nothing-accumulated "pass" "."
case "$(remedy_of nothing-accumulated)" in *"branch -d master"*) out=$(remedy_of nothing-accumulated); fail "master offered for deletion" ;; esac
git remote set-head origin --auto > /dev/null
expect_answer integrated "pass" "The trunk origin/master \(the remote's default branch"
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
