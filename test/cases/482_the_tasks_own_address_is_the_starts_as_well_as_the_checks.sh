#!/usr/bin/env bash
# The work of test/cases/435 (a linked worktree's commit, squash-merged on
# the forge, the worktree and branch removed, pulled back) is the task's
# because its loose commit is authored under this repository's own
# address. That address was read when the task was checked: `git config
# user.email` of another address after the work (a work address set for
# this clone), or `GIT_AUTHOR_EMAIL=...` for one check, read the task's
# own commit as a colleague's, its paths outside the scope, its debt entry
# and the gate it breaks all set apart, `done: complete`, the stop let
# through. The start keeps the addresses it ran under; a commit under one
# of them, or under the address of now, is the task's.
source "$(dirname "$0")/../lib.sh" || exit 2
unset GIT_AUTHOR_EMAIL GIT_COMMITTER_EMAIL
git config user.email me@example.com

mkdir -p .ai/repo src tests docs
exempt_forge
cat >> .ai/repo/majordomus.toml <<'TOML'

[gates.unit]
run = "grep -q fixed src/lib.rs"
inputs = ["src/**"]
TOML
echo 'fn a() {} // fixed' > src/lib.rs
echo '#[test] fn t() {}' > tests/t.rs
echo doc > docs/x.md
echo 'old-entry' > .ai/repo/lint-baseline.txt
commit_all "initial"
with_origin
git clone -q "$case_root/origin.git" "$case_root/forge"
expect_run 0 md start "fix the tests" --scope tests
expect_run 0 md gate run unit

git worktree add -q "$case_root/wt-feat" -b feat
(
  cd "$case_root/wt-feat"
  echo 'fn a() { broken }' > src/lib.rs
  echo 'rewritten by the task' > docs/x.md
  echo 'new-debt-entry' >> .ai/repo/lint-baseline.txt
  git commit -q -am "task work"
  git push -q -u origin feat
)
(
  cd "$case_root/forge"
  git -c user.email=forge@example.com fetch -q
  git merge -q --squash origin/feat > /dev/null
  git -c user.email=forge@example.com commit -q -m "task work (#1)"
  git push -q origin main
  git push -q origin --delete feat
)
git worktree remove "$case_root/wt-feat"
git branch -q -D feat
git pull -q --prune
echo '#[test] fn t2() {}' >> tests/t.rs
# A minute on: a commit in the same second under the same author is read
# as the worktree's commit rewritten (test/cases/484).
git commit -q -am "one more test" --date="$(date -R -d '+1 minute')"
git push -q

# Under the address the work was committed with (test/cases/435).
expect_open scoped "docs/x.md.*src/lib.rs" refused

# One check under another address: still the task's.
GIT_AUTHOR_EMAIL=someone-else@example.com expect_run 10 md check
GIT_AUTHOR_EMAIL=someone-else@example.com expect_open scoped "docs/x.md.*src/lib.rs" refused

# The address changed in the configuration after the work: still the
# task's, and the stop is held.
git config user.email me@work.example.com
expect_open scoped "docs/x.md.*src/lib.rs" refused
expect_open no-new-debt "new-debt-entry" refused
expect_open gates-green "unit"
stop_hook "$PWD"
[ "$(hook_decision)" = block ] || fail "the stop hook let the stop through"

# What made it so: the start kept the addresses it ran under.
grep -q '"own_addresses"' .ai/local/state/task.json || fail "the start keeps no address of its own"
