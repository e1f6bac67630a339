#!/usr/bin/env bash
# A task scoped to src and tests pushes its fix, then merges a second
# in-scope branch on a throw-away branch with --no-commit, slips an edit of
# docs/x.md (outside the scope) into the merge commit, pushes the merge
# onto origin's main, goes back to main and deletes the branches. HEAD,
# behind the trunk, holds none of it, and test/cases/349's reading of the
# commits made around HEAD left merges out: scoped passed.
#
# The rule: a merge this worktree made since the start that HEAD does not
# reach is read as any commit is, by its own change: the paths where it
# differs from every parent (what it took from one side is that side's).
# Where the trunk holds that change, scoped is refused naming it. The
# task's own merge of the trunk into its branch, bringing a colleague's
# change outside the scope, brings nothing of its own: scoped passes,
# whether HEAD holds the merge or it landed around HEAD.
source "$(dirname "$0")/../lib.sh" || exit 2

setup() {
  exempt_forge
  mkdir -p src tests docs
  echo 'fn parse() {}' > src/lib.rs
  echo 'old' > tests/t.sh
  echo 'the docs' > docs/x.md
  commit_all "initial"
  with_origin
  expect_run 0 md start --scope src --scope tests "fix the parser"
}

# The fix pushed, then a merge with an edit of its own landed around HEAD.
setup
echo 'fn parse() { fixed(); }' > src/lib.rs
echo 'checks the fix' > tests/t.sh
commit_all "fix the parser"
git push -q origin main
git checkout -q -b side
echo 'fn helper() {}' > src/helper.rs
commit_all "helper"
git checkout -q -b tmp main
git merge -q --no-ff --no-commit side >/dev/null 2>&1
echo 'the docs, rewritten by the task' > docs/x.md
git add docs/x.md
git commit -q -m "Merge branch side"
git push -q origin tmp:main
git checkout -q main
git branch -q -D tmp side
expect_open scoped "docs/x.md" "refused"
case "$(evidence_of scoped)" in *src/helper.rs*) fail "expected scoped not to name src/helper.rs" ;; esac

# Honest: a colleague's docs change on the trunk, merged into the task's
# branch, the merge pushed onto the trunk and the branch deleted (HEAD
# left behind); then the trunk merged into main and pushed.
cd "$case_root"
rm -rf repo origin.git colleague
git init -q -b main repo
cd repo
setup
colleague "docs" "echo 'the docs, by a colleague' > docs/x.md"
git checkout -q -b fix
echo 'fn parse() { fixed(); }' > src/lib.rs
echo 'checks the fix' > tests/t.sh
commit_all "fix the parser"
git pull -q --no-rebase --no-edit origin main
git push -q origin fix:main
git checkout -q main
git branch -q -D fix
expect_answer scoped "pass" "inside the scope"
git pull -q --no-rebase --no-edit origin main
git push -q origin main
expect_answer scoped "pass" "inside the scope"
