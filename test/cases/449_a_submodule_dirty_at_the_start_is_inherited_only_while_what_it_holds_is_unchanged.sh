#!/usr/bin/env bash
# A submodule already dirty at the start (a peer's edit inside it, a commit
# there the superproject does not record, a `git submodule add` staged and
# not committed, a repository embedded with `git add` and no .gitmodules)
# was inherited by its path alone: its content id was that of a directory,
# none at the start and none now, so whatever the task did inside it since
# (the edit committed and pushed there, more commits, a new edit) left
# `committed` passing while `git status` showed ` M lib` for the task's own
# work. A submodule is inherited only while what it holds is what the start
# found: its HEAD's commit and what its own status lists, with each path's
# content.
source "$(dirname "$0")/../lib.sh" || exit 2

git init -q -b main "$case_root/libsrc"
(cd "$case_root/libsrc" && echo l > l.txt && git add l.txt && git commit -qm lib)

# fresh NAME: a repository of its own at $case_root/NAME, README committed,
# the forge exempted; the case goes on inside it.
fresh() {
  git init -q -b main "$case_root/$1"
  cd "$case_root/$1"
  echo base > README
  exempt_forge
  commit_all initial
}
add_lib() { git -c protocol.file.allow=always submodule add -q "$case_root/libsrc" lib; }

# A peer's edit inside lib at the start, left alone: inherited, named.
fresh edited
add_lib
commit_all "add lib"
echo "peer's edit" >> lib/l.txt
expect_run 0 md start "fix lib"
echo t > tests.txt && commit_all "the task's work"
expect_answer committed pass "already dirty at the start.*lib"
# The task commits that edit inside lib: lib's HEAD moved, the bump unrecorded.
(cd lib && git commit -qam "the task's fix inside lib")
git status --porcelain=v2 | grep -q '^1 .M SC.. .* lib$' || fail "setup: git does not show lib's new commit"
expect_open committed "lib" owed
# Put back as the start found it: inherited again.
(cd lib && git reset -q --soft HEAD~1 && git reset -q)
expect_answer committed pass "already dirty at the start.*lib"

# A commit inside lib the superproject did not record at the start; the
# task commits more there.
fresh ahead
add_lib
commit_all "add lib"
(cd lib && echo peer >> l.txt && git commit -qam "a peer's commit in lib")
expect_run 0 md start "fix lib"
expect_answer committed pass "already dirty at the start.*lib"
(cd lib && echo fix >> l.txt && git commit -qam "the task's fix inside lib")
expect_open committed "lib" owed

# `git submodule add` staged, not committed, at the start; the task edits
# inside lib and leaves the edit there.
fresh staged
add_lib
expect_run 0 md start "edit lib"
expect_answer committed pass "already dirty at the start.*lib"
echo "the task's edit" >> lib/l.txt
git status --porcelain=v2 | grep -q '^1 AM S.M. .* lib$' || fail "setup: git does not show lib modified inside"
expect_open committed "lib" owed

# A repository embedded with `git add` (a gitlink, no .gitmodules) with an
# edit inside at the start; the task commits it there.
fresh embedded
git clone -q "$case_root/libsrc" vendor/dep 2> /dev/null
git add vendor/dep 2> /dev/null
commit_all "embed dep"
echo "peer's edit" >> vendor/dep/l.txt
expect_run 0 md start "fix dep"
expect_answer committed pass "already dirty at the start.*vendor/dep"
(cd vendor/dep && git commit -qam "the task's fix inside dep")
expect_open committed "vendor/dep" owed
