#!/usr/bin/env bash
# A gitlink the task's own commits moved must point at a commit the
# submodule's remote holds wherever those commits are now, not only on
# HEAD. The task commits inside the submodule lib, commits the bump and
# pushes it onto the trunk, then takes it back from HEAD (`git reset --hard
# HEAD~1`, `git -C lib reset --hard origin/main`); or makes the same in a
# linked worktree, `git push origin feat:main`, and removes the worktree
# and its branch. HEAD's tree is the start's again, and pushed passed
# (`done: complete`) while origin/main records a commit of lib nobody can
# fetch. Every commit made here since the start (HEAD's reflog, or a loose
# commit under this repository's own address) is asked which gitlinks it
# moved, where a ref that moved since holds it: owed, naming lib. Pushing
# lib's commit lets it pass; a bump whose lib commit was pushed first, and
# a colleague's bump fetched, pass.
source "$(dirname "$0")/../lib.sh" || exit 2
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
top=$case_root

# fresh NAME: a superproject of its own under NAME, lib (its own bare
# remote) added as a submodule, committed and pushed, and a task started.
fresh() {
  case_root="$top/$1"
  mkdir -p "$case_root"
  git init -q --bare -b main "$case_root/lib.git"
  git clone -q "$case_root/lib.git" "$case_root/seed" 2> /dev/null
  (cd "$case_root/seed" && git commit -q --allow-empty -m lib && git push -q origin HEAD:main)
  git init -q -b main "$case_root/repo"
  cd "$case_root/repo"
  echo base > README
  exempt_forge
  commit_all "initial"
  with_origin
  git submodule --quiet add ../lib.git lib
  commit_all "lib"
  git push -q origin main
  expect_run 0 md start "use lib's new function"
}

# bump [PUSH_LIB]: a commit inside lib, the bump committed with a test
# (lib's commit pushed to lib's remote first where PUSH_LIB is given).
bump() {
  (cd lib && echo 'pub fn new() {}' > new.rs && git add new.rs && git commit -qm "lib: new")
  [ -z "${1-}" ] || git -C lib push -q origin HEAD:main
  mkdir -p tests
  echo t > tests/new.rs
  git add lib tests
  git commit -qm "use lib's new function"
}

lib_remote_lacks_trunks_lib() {
  ! git -C "$case_root/lib.git" cat-file -e "$(git rev-parse origin/main:lib)" 2> /dev/null
}

# The bump pushed onto the trunk, then taken back from HEAD.
fresh reset
bump
git push -q origin main
git reset -q --hard HEAD~1
git -C lib reset -q --hard origin/main
lib_remote_lacks_trunks_lib || fail "setup: lib's remote holds the trunk's lib commit"
expect_open pushed "submodule lib points at [0-9a-f]+, which none of lib's remote-tracking refs holds" "owed"
expect_run 10 md check
expect_not_contains "done: complete"
# The way out: lib's commit pushed to lib's remote.
git -C lib push -q origin "$(git rev-parse origin/main:lib):refs/heads/main"
expect_answer pushed "pass" "."

# The same from a linked worktree, removed with its branch.
fresh worktree
git worktree add -q -b feat "$case_root/w"
(cd "$case_root/w" && git submodule --quiet update --init && bump && git push -q origin feat:main)
git worktree remove --force "$case_root/w"
git branch -q -D feat
git fetch -q origin
lib_remote_lacks_trunks_lib || fail "setup: lib's remote holds the trunk's lib commit"
expect_open pushed "submodule lib points at" "owed"

# Honest: lib's commit pushed to its remote first, from the linked worktree,
# then a colleague's bump of lib (its commit pushed too) fetched.
fresh honest
git worktree add -q -b feat "$case_root/w"
(cd "$case_root/w" && git submodule --quiet update --init && bump push && git push -q origin feat:main)
git worktree remove --force "$case_root/w"
git branch -q -D feat
git -C lib fetch -q origin
expect_answer pushed "pass" "."
git clone -q "$case_root/origin.git" "$case_root/colleague"
(
  cd "$case_root/colleague"
  export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com
  git submodule --quiet update --init
  (cd lib && git commit -q --allow-empty -m "lib: theirs" && git push -q origin HEAD:main)
  git add lib
  git commit -qm "their bump"
  git push -q origin main
)
git fetch -q origin
expect_answer pushed "pass" "."
