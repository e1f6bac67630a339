#!/usr/bin/env bash
# An ignore rule hides a new file from no-untracked only where it held at
# the start (test/cases/154-156 for rules outside HEAD). A rule the task
# commits is no different: `echo src/helper.rs >> .gitignore`, committed and
# pushed with the work, left the helper the work needs out of the
# repository while check read `done: complete`, and so did a `.gitignore`
# committed in a directory new since the start. The other way round, a rule
# the task took away (a line deleted from `.git/info/exclude`) left
# `git status` listing the new file while check, reading by the start's
# rules alone, hid it. A file is ignored only where both the rules that
# held at the start and git's own now ignore it; a rule unchanged since
# the start still hides what it hid.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src tests
echo 'pub fn a() {}' > src/a.rs
echo 'target/' > .gitignore
echo 'notes/' >> .git/info/exclude
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "split a helper out"

echo 'mod helper; pub fn a() { helper::h() }' > src/a.rs
echo 'pub fn h() {}' > src/helper.rs
echo 't' > tests/a.rs
mkdir -p target && echo 'built' > target/out
echo 'src/helper.rs' >> .gitignore
commit_all "split a helper out"
git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: git still shows something"
expect_open no-untracked "src/helper.rs \(ignored by a rule in \.gitignore that did not hold at the start\)" owed
out=$(evidence_of no-untracked)
expect_not_contains "target/out"
expect_run 10 md check

# The same rule in a .gitignore of a directory new since the start.
git rm -q --cached .gitignore && git checkout -q HEAD~1 -- .gitignore
git add src/helper.rs .gitignore && git commit -qm "the helper" && git push -q origin main
expect_run 0 md check
mkdir -p pkg
echo 'pub fn p() {}' > pkg/p.rs
echo 'p.rs' > pkg/.gitignore
git add pkg/.gitignore && git commit -qm "pkg" && git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: git still shows pkg/p.rs"
expect_open no-untracked "pkg/p\.rs \(ignored by a rule in pkg/\.gitignore that did not hold at the start\)" owed
git add -f pkg/p.rs && git commit -qm "p" && git push -q origin main
expect_run 0 md check

# A rule taken out of info/exclude since the start: git lists the file.
sed -i '/notes/d' .git/info/exclude
mkdir -p notes && echo 'plan' > notes/plan.md
git status --porcelain | grep -q '^?? notes/' || fail "setup: git does not list notes/"
expect_open no-untracked "notes/plan\.md" owed
expect_run 10 md check

# A task started in a new repository, before its first commit: the
# .gitignore its first commit holds sets the repository up, as the policy
# file does, and hides what it hides.
git init -q -b main "$case_root/new"
cd "$case_root/new"
exempt_forge
expect_run 0 md start "set the project up"
mkdir -p node_modules/dep tests
echo 'module.exports = 1' > node_modules/dep/index.js
echo 'node_modules/' > .gitignore
echo 't' > tests/t.js
git add -A && git commit -qm "the project"
expect_answer no-untracked pass "."
