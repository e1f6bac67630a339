#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# filings-closed settles an open filed issue as a registered limitation
# when a marker in a file the register scans names it. The register was
# read from the working tree alone: a marker in a file never committed
# (src/limits.rs left untracked and acknowledged as a peer's, `ack` taking
# the worker's word for an untracked file), or kept in the file while a
# clean filter given to one `git add` stored a blob without it (git status
# clean: the hole 461 left), registered the limitation, though no commit,
# and so no clone, holds the marker. A marker registers only where HEAD's
# commit holds it at that path too.

parse_project_beside_a_fake_gh
expect_run 0 md start "parse the trailer"
on_forge acme/widgets 7 open limitation
expect_run 0 md issue file 7
echo 'pub fn trailer() {}' >> src/lib.rs
echo '#[test] fn t() {}' > tests/trailer.rs
commit_all "parse the trailer"
git push -q origin main

# A marker in a file no commit holds, acknowledged as a peer's.
printf '// %s(#7): extension fields are not parsed\n' "$L" > src/limits.rs
expect_run 0 md ack no-untracked --why "a peer's notes"
expect_run 0 md forge refresh
expect_open filings-closed "#7.*no marker .*HEAD's commit" owed
rm src/limits.rs

# A clean filter stores a blob without the marker the file keeps.
printf 'pub fn trailer2() {}\n// %s(#7): extension fields are not parsed\n' "$L" >> src/lib.rs
touch -d "-30 seconds" src/lib.rs
printf 'src/lib.rs filter=strip\n' > "$case_root/attributes"
git -c core.attributesFile="$case_root/attributes" -c filter.strip.clean="grep -v '$L'" add src/lib.rs
git commit -q -m "the trailer's limitation"
git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "git status is not clean: $(git status --porcelain)"
git show HEAD:src/lib.rs | grep -q "$L" && fail "the commit holds the marker"
expect_run 0 md forge refresh
expect_open filings-closed "#7.*no marker .*HEAD's commit" owed

# The honest way: the marker committed.
git add --renormalize src/lib.rs
git commit -q -m "the marker committed"
git push -q origin main
git show HEAD:src/lib.rs | grep -q "$L(#7)" || fail "the commit does not hold the marker"
expect_answer filings-closed pass "registered limitation.*src/lib.rs:4"
