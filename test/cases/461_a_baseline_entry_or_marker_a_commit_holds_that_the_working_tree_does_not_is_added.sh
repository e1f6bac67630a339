#!/usr/bin/env bash
# A clean filter given for one `git add` (`git -c core.attributesFile=...
# -c filter.NAME.clean=...`) stores a blob other than the file: the commit
# holds a line the working tree never shows, the index keeps the file's
# stat data so `git status` is clean, and nothing stays in any
# configuration. no-new-debt and markers-live read the working tree, so a
# baseline entry (or a limitation marker naming a closed issue) committed
# and pushed this way passed. What HEAD's commit holds is held now as much
# as what the file holds: where HEAD's blob is not the file's content, its
# lines past the file's are read too. A baseline whose working-tree copy
# only differs from HEAD's honestly (CRLF in the file, LF committed; an
# entry the start held taken out and not yet committed) adds nothing.
source "$(dirname "$0")/../lib.sh" || exit 2

L="LIMIT""ATION"
fake_gh_with_issues
mkdir -p .ai/repo src tests
exempt_forge
printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
printf 'pub fn parse() {}\n' > src/parse.rs
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
on_forge acme/widgets 9 closed limitation
expect_run 0 md forge refresh
expect_run 0 md start "fix a"

echo "fn a() { unwrap() }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
git add src tests
# One command's configuration: nothing stays in any file.
printf '.ai/repo/*-baseline.txt filter=debt\nsrc/parse.rs filter=mark\n' > "$case_root/attrs"
touch -d "-30 seconds" .ai/repo/lint-baseline.txt src/parse.rs
git -c core.attributesFile="$case_root/attrs" \
    -c filter.debt.clean="sh -c 'cat; echo \"src/lib.rs: unwrap\"'" \
    -c filter.mark.clean="sh -c 'cat; echo \"// $L(#9): trailers\"'" \
    add .ai/repo/lint-baseline.txt src/parse.rs
git commit -q -m "fix a"
git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
git show HEAD:.ai/repo/lint-baseline.txt | grep -q 'src/lib.rs: unwrap' || fail "setup: HEAD lacks the entry"
grep -q 'src/lib.rs: unwrap' .ai/repo/lint-baseline.txt && fail "setup: the working tree holds the entry"

expect_run 0 md forge refresh
expect_open no-new-debt "src/lib.rs: unwrap.*HEAD's commit holds" refused
expect_also markers-live "src/parse.rs:2 .*#9.*HEAD.s commit holds it.*is closed" refused

# Taken out in a commit that stores what the file holds: nothing added.
git add --renormalize .
git commit -q -m "the baseline and the file as they are"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"
expect_also markers-live "No limitation marker" pass

# The working tree's file differs from HEAD's blob honestly: CRLF endings
# (the entries read the same), and an entry the start held taken out and
# not yet committed. Neither adds an entry.
printf 'src/old.rs: unwrap\r\n' > .ai/repo/lint-baseline.txt
git commit -q -am "CRLF"
printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
expect_answer no-new-debt pass "No entry was added"
: > .ai/repo/lint-baseline.txt
expect_answer no-new-debt pass "No entry was added"
