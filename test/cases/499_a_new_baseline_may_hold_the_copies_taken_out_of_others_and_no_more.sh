#!/usr/bin/env bash
# README, "The closing questions": a baseline new since the start that
# holds entries taken out of other baselines is compared with what was
# taken out of them, and entries are compared as copies (test/cases/462).
# What was taken out was read as a set: one of two copies of an entry moved
# into a new baseline left the other where it was, so the new baseline
# counted as fed by nothing, was named as a new tool's findings and not
# counted, and the entry the task put beside the copy passed. So did an
# entry two baselines held, taken out of one. A new baseline may hold the
# copies taken out of the start's baselines, each once over every new
# baseline, and whatever else it holds is added; the honest split passes.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
exempt_forge
printf 'src/b.rs: expect\nsrc/b.rs: expect\nsrc/c.rs: panic\n' > .ai/repo/lint-baseline.txt
printf 'src/d.rs: todo\n' > .ai/repo/a-baseline.txt
printf 'src/d.rs: todo\nsrc/f.rs: todo\n' > .ai/repo/b-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"

# The honest split: one of the two copies moved into a baseline of its own.
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
printf 'src/b.rs: expect\nsrc/c.rs: panic\n' > .ai/repo/lint-baseline.txt
printf 'src/b.rs: expect\n' > .ai/repo/expect-baseline.txt
commit_all "fix a"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"

# The task's own entry beside the copy moved: added.
echo "fn a() { fixed; x.expect(\"y\") }" > src/lib.rs
printf 'src/b.rs: expect\nsrc/lib.rs: expect\n' > .ai/repo/expect-baseline.txt
commit_all "fix a, expecting"
git push -q origin main
expect_open no-new-debt 'expect-baseline.txt \(new since the start, but holding 1 entry taken out of other baselines.*added `src/lib.rs: expect`' refused

# An entry two baselines held, taken out of one, beside one of the task's.
echo "fn a() { fixed }" > src/lib.rs
printf 'src/b.rs: expect\n' > .ai/repo/expect-baseline.txt
printf 'src/f.rs: todo\n' > .ai/repo/b-baseline.txt
printf 'src/d.rs: todo\nsrc/e.rs: todo\n' > .ai/repo/todo-baseline.txt
commit_all "todos"
git push -q origin main
expect_open no-new-debt 'todo-baseline.txt \(new since the start.*added `src/e.rs: todo`' refused

# Without it, the moved copy alone passes.
printf 'src/d.rs: todo\n' > .ai/repo/todo-baseline.txt
commit_all "todos, only the one moved"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"
