#!/usr/bin/env bash
# no-new-debt compares each baseline's entries as copies, not as a set. A
# baseline may list one line per occurrence (`src/old.rs: unwrap` twice:
# two unwraps allowed in src/old.rs, line numbers left out because they
# move), so a second copy of a line the start held once allows one more:
# it is an entry added, named with its copies then and now. A baseline
# regenerated in another order, entries taken out, a duplicate the start
# already held kept as it was, and CRLF line endings made LF add nothing.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
exempt_forge
printf 'src/old.rs: unwrap\nsrc/b.rs: expect\nsrc/b.rs: expect\nsrc/c.rs: panic\n' > .ai/repo/lint-baseline.txt
printf 'src/x.rs: todo\r\nsrc/y.rs: todo\r\n' > .ai/repo/todo-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"

echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
printf 'src/old.rs: unwrap\n' >> .ai/repo/lint-baseline.txt
commit_all "fix a"
git push -q origin main
expect_open no-new-debt 'src/old.rs: unwrap` \(1 copy then, 2 now\)' refused

# Regenerated in another order, one entry taken out, the start's duplicate
# kept as it was, and the other baseline's CRLF made LF: nothing added.
printf 'src/c.rs: panic\nsrc/b.rs: expect\nsrc/b.rs: expect\n' > .ai/repo/lint-baseline.txt
printf 'src/y.rs: todo\nsrc/x.rs: todo\n' > .ai/repo/todo-baseline.txt
commit_all "the baselines regenerated"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"

# A duplicate moved from one baseline to a new one is still the start's.
printf 'src/c.rs: panic\nsrc/b.rs: expect\n' > .ai/repo/lint-baseline.txt
printf 'src/b.rs: expect\n' > .ai/repo/expect-baseline.txt
commit_all "expect entries in a baseline of their own"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"
