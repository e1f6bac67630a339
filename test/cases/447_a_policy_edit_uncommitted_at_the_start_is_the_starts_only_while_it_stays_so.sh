#!/usr/bin/env bash
# README, "The policy in force" (test/cases/389's class): an edit to the
# policy uncommitted at the start is the start's only while it stays
# uncommitted in the working tree. The start kept the file's text, and
# whether it held such an edit was asked only where `git status` named the
# policy's own path dirty at the start, so a loosening (the gate's `run`
# made `true`) stayed the start's policy, and `done: complete` read over a
# broken src/lib.rs, when it was:
# - kept out of `git status` by a bit (--skip-worktree, --assume-unchanged),
#   then the bit cleared and the file committed with the task's work;
# - made to config/majordomus.toml, which the policy file is a committed
#   symbolic link to (status names the target), and committed by `git add
#   -A`; a record without the kept text read the link's blob as the policy;
# - thrown away since (`git checkout -- FILE`), or rewritten (the loosening
#   undone, a cap lowered): no copy of it is left, yet it still ruled.
# Now the kept text is compared with the start commit's file (links followed
# inside the tree), whatever status said: the edit is the start's while HEAD
# holds the start commit's file and the working tree still makes every change
# it made; otherwise the start commit's file is the start's policy. Left
# uncommitted, hidden or through the link, it is still the start's.
source "$(dirname "$0")/../lib.sh" || exit 2

# fresh NAME [link]: a repository of its own with a gate `unit` (grep for
# "fixed" in src/lib.rs), pushed to its own origin; with `link`, the policy
# file is a committed link to config/majordomus.toml.
fresh() {
  cd "$case_root"
  git init -q -b main "$1" && cd "$1"
  unit_gate_policy
  if [ "${2-}" = link ]; then
    mkdir -p config
    mv .ai/repo/majordomus.toml config/majordomus.toml
    ln -s ../../config/majordomus.toml .ai/repo/majordomus.toml
  fi
  echo "fn a() {}" > src/lib.rs
  commit_all "initial"
  git init -q --bare -b main "$case_root/$1.git"
  git remote add origin "$case_root/$1.git"
  git push -q -u origin main
  git remote set-head origin main
}

loosen() { sed -i 's/^run = .*/run = "true"/' "$1"; }

# break_fix_a: the task's work, a broken src/lib.rs and a test, committed
# alone (the policy file left as it is).
break_fix_a() {
  echo "fn a() { broken }" > src/lib.rs
  echo "#[test] fn t(){}" > tests/a.rs
  git add src tests && git commit -q -m "fix a"
}

# The start commit's command, `grep -q fixed src/lib.rs`, judges.
expect_start_commits_gate() {
  git push -q origin main
  expect_run 10 md gate run unit
  expect_run 10 md check
  expect_open gates-green "unit" "refused owed"
}

for bit in --skip-worktree --assume-unchanged; do
  fresh "bit${bit}"
  loosen .ai/repo/majordomus.toml
  git update-index "$bit" .ai/repo/majordomus.toml
  [ -z "$(git status --porcelain)" ] || fail "$bit: git status should show nothing at the start"
  expect_run 0 md start "fix a"
  break_fix_a
  # Hidden and uncommitted, the local setting is the start's.
  expect_run 0 md gate run unit
  # The bit cleared and the file committed with the work: the task's change.
  git update-index "--no-${bit#--}" .ai/repo/majordomus.toml
  commit_all "tidy"
  git show HEAD:.ai/repo/majordomus.toml | grep -q '^run = "true"' || fail "$bit: the loosening was not committed"
  expect_start_commits_gate
  json_get "$case_root/doc.json" "d['policy']['start']" | grep -q "uncommitted at the start that the task has committed since" \
    || { out=$(cat "$case_root/doc.json"); fail "$bit: the finding does not say where the start's policy came from"; }
done

# Through a committed link: left uncommitted, the edit is the start's; once
# `git add -A` commits the target, the start commit's file (through the link) is.
fresh link link
loosen config/majordomus.toml
expect_run 0 md start "fix a"
break_fix_a
expect_run 0 md gate run unit
commit_all "tidy"
git show HEAD:config/majordomus.toml | grep -q '^run = "true"' || fail "link: the loosening was not committed"
expect_start_commits_gate

# Thrown away since the start, then the file rewritten without it (a cap
# lowered): either way nothing holds the edit, and the start commit's file rules.
fresh thrown
loosen .ai/repo/majordomus.toml
expect_run 0 md start "fix a"
git checkout -q -- .ai/repo/majordomus.toml
break_fix_a
expect_start_commits_gate
printf '\n[caps]\ncommitted = 5\n' >> .ai/repo/majordomus.toml
expect_start_commits_gate
# Made again, uncommitted: the working tree holds the edit, the start's again.
git checkout -q -- .ai/repo/majordomus.toml
loosen .ai/repo/majordomus.toml
expect_run 0 md gate run unit

# A policy link leading outside the tree is still read through, as before,
# and a loosening of what it leads to since the start is not in force.
fresh outside
unit_gate_policy
mv .ai/repo/majordomus.toml "$case_root/shared.toml"
ln -s "$case_root/shared.toml" .ai/repo/majordomus.toml
commit_all "the policy kept outside"
git push -q origin main
expect_run 0 md start "fix a"
loosen "$case_root/shared.toml"
break_fix_a
expect_start_commits_gate
