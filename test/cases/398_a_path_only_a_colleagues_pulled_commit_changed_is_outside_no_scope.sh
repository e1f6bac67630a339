#!/usr/bin/env bash
# README, "Whose work it is": what arrived from a remote is not the task's.
# The most ordinary flow: a task scoped to src and tests commits its fix, a
# colleague pushes docs/x.md to origin/main, the task runs `git pull
# --rebase` and pushes. `scoped` was refused naming docs/x.md, which the
# task never touched: the change was read as HEAD against the start commit.
# A pull that merges does the same. Work the task pushed from a branch and
# a colleague squash-merged, pulled back onto main, is still the task's:
# its test counts, its commit is measurable, its paths are judged.
source "$(dirname "$0")/../lib.sh" || exit 2

unit_gate_policy
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin

expect_run 0 md start "fix a" --scope src --scope tests
echo "fn a() { fixed }" > src/lib.rs
mkdir -p tests && echo "#[test] fn t(){}" > tests/a.rs
commit_all "my fix"
colleague "docs" 'mkdir -p docs && echo d > docs/x.md'
git pull -q --rebase
git push -q origin main
expect_run 0 md gate run unit
expect_run 0 md check
expect_answer scoped "pass" "All 2 paths changed since the start lie inside the scope src, tests\. Not judged: 1 path changed only by commits a fetch brought since the start, which are not the task's \(docs/x\.md\)"
judge_answer measurable "pass" "HEAD holds 1 commit made since the start \(and 1 commit a fetch brought"

# A pull that merges.
echo "#[test] fn u(){}" > tests/b.rs
commit_all "another test"
colleague "more docs" 'echo e > docs/y.md'
git pull -q --no-rebase --no-edit
git push -q origin main
expect_run 0 md check
expect_answer scoped "pass" "All 3 paths changed since the start lie inside the scope.*Not judged: 2 paths .*docs/x\.md, docs/y\.md"

# The task's work on a branch, pushed, squash-merged by a colleague and
# pulled onto main with the branch deleted: the task's still.
git checkout -q -b feature
echo "#[test] fn w(){}" > tests/c.rs
commit_all "a third test"
git push -q origin feature
(cd "$case_root/colleague" && export GIT_AUTHOR_NAME=Colleague GIT_COMMITTER_NAME=Colleague &&
  git pull -q --rebase && git fetch -q origin feature && git merge -q --squash FETCH_HEAD &&
  git commit -q -m "squashed feature" && git push -q origin main && git push -q origin --delete feature)
git checkout -q main
git branch -q -D feature
git pull -q --ff-only
git fetch -q --prune
expect_run 0 md check
expect_answer scoped "pass" "All 4 paths changed since the start lie inside the scope"
judge_answer regression-tested "pass" "tests/c.rs"

