#!/usr/bin/env bash
# A gate whose inputs reach into a submodule covered it only by the commit
# the index records: an edit inside the submodule's working tree was no
# line of the inputs hash (a dirty gitlink's content id was that of a
# directory, none, and the path was dropped; one `submodule.lib.ignore =
# dirty` hides from the status, by the index's commit). A pass recorded
# over the fix written inside lib, uncommitted, stood once the fix was
# thrown away (`git -C lib checkout .`) or replaced by a broken edit: the
# verdict read current over a tree the gate fails. A submodule among the
# inputs contributes its checked-out HEAD and each path its own status
# lists, with its content, whatever its `ignore` setting says: a verdict
# recorded over one content inside it is stale over another, and current
# again over the same.
source "$(dirname "$0")/../lib.sh" || exit 2
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always

git init -q -b main "$case_root/libsrc"
(cd "$case_root/libsrc" && echo broken > x.txt && git add -A && git commit -qm "lib")

# fresh NAME [IGNORE]: a repository of its own at $case_root/NAME with a
# gate `unit` (passing only with "fixed" in lib/x.txt) over every file and
# lib added as a submodule (its `ignore` set to IGNORE in .gitmodules),
# committed and pushed, a task started and its work committed.
fresh() {
  git init -q -b main "$case_root/$1"
  cd "$case_root/$1"
  mkdir -p .ai/repo src tests
  printf '[gates.unit]\nrun = "grep -q fixed lib/x.txt"\ninputs = ["**"]\n' > .ai/repo/majordomus.toml
  exempt_forge
  git submodule add -q "$case_root/libsrc" lib 2> /dev/null
  if [ -n "${2-}" ]; then git config -f .gitmodules submodule.lib.ignore "$2"; fi
  echo a > src/a.txt
  commit_all initial
  git init -q --bare -b main "$case_root/$1.git"
  git remote add origin "$case_root/$1.git"
  git push -q -u origin main
  git remote set-head origin main
  expect_run 0 md start "fix x"
  echo b > src/a.txt
  echo t > tests/a.txt
  commit_all work
  git push -q origin main
}

# No setting: the fix inside lib, a run over it, then another edit there.
fresh plain
echo fixed > lib/x.txt
expect_run 0 md gate run unit
expect_answer gates-green pass "unit"
echo "broken again" > lib/x.txt
expect_open gates-green "unit" "owed refused"
# The fix put back: the verdict is found again over the content it was run on.
echo fixed > lib/x.txt
expect_answer gates-green pass "unit"
# Committed inside lib (HEAD moved, the bump not recorded): another content.
(cd lib && git commit -qam "the fix")
expect_open gates-green "unit" "owed refused"
expect_run 0 md gate run unit
expect_answer gates-green pass "unit"

# `ignore = dirty` in .gitmodules at the start: git status shows nothing of
# lib, and committed passes; the fix thrown away still leaves the run stale.
fresh ignored dirty
echo fixed > lib/x.txt
[ -z "$(git status --porcelain)" ] || fail "setup: git shows lib: $(git status --porcelain)"
expect_run 0 md gate run unit
expect_answer gates-green pass "unit"
git -C lib checkout -q .
! grep -q fixed lib/x.txt || fail "setup: the gate's command passes on the tree now"
expect_open gates-green "unit" "owed refused"
expect_run 10 md check
