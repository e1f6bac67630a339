#!/usr/bin/env bash
# The task works in a linked worktree made for it, pushes its branch for
# review; the forge squash-merges it and deletes the branch; the task
# removes the worktree (its HEAD reflog goes with it), deletes the branch
# (its reflog too) and `git pull --prune`s (the pushed branch's ref and
# the push line in its reflog too). What came back onto HEAD was read as a
# colleague's: its paths outside the scope, its debt entry and the gate it
# breaks all set apart, `done: complete`. A commit made here since the
# start is a loose object written since, under this repository's own
# user.email, that no ref reaches: the work is the task's.
source "$(dirname "$0")/../lib.sh" || exit 2

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
  GIT_AUTHOR_DATE="2026-01-01T10:00:00Z" git commit -q -am "task work"
  git push -q -u origin feat
)
(
  cd "$case_root/forge"
  git fetch -q
  git merge -q --squash origin/feat > /dev/null
  GIT_AUTHOR_DATE="2026-01-01T11:00:00Z" git commit -q -m "task work (#1)"
  git push -q origin main
  git push -q origin --delete feat
)
git worktree remove "$case_root/wt-feat"
git branch -q -D feat
git pull -q --prune
echo '#[test] fn t2() {}' >> tests/t.rs
GIT_AUTHOR_DATE="2026-01-01T12:00:00Z" git commit -q -am "one more test"
git push -q
[ -n "$(git fsck --unreachable --no-reflogs 2>/dev/null | grep commit)" ] || fail "the task's commit is not left unreachable"

expect_open scoped "outside the scope tests: .*docs/x.md.*src/lib.rs" refused
expect_also no-new-debt "new-debt-entry" refused
expect_also gates-green "unit" "owed refused"
expect_run 10 md check
