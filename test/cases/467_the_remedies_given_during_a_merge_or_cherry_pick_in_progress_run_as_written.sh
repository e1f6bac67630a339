#!/usr/bin/env bash
# A merge of the trunk in progress (the task's branch brought up to date,
# a colleague's commits fetched): `committed` gave `git commit -- NEWS.md`,
# which git refuses ("cannot do a partial commit during a merge"), and
# `scoped` refused the colleague's NEWS.md the merge brings in, advising to
# revert it or `scope add` it.
#
# The rule: while a merge, cherry-pick, revert, rebase or am session is in
# progress, `committed`'s remedy finishes it: advice to resolve the
# conflicts while any remain, then a command (`git add -- PATH... && git
# commit --no-edit` for a merge, `... && GIT_EDITOR=true git cherry-pick
# --continue` for the others) that runs as written. `scoped` does not
# refuse a path the merge brings from its other side (the working tree
# holds it as MERGE_HEAD does): whose it is is read once the merge is
# committed, `unknown` until then; an edit of the task's own made during
# the merge is refused as ever.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p tests
echo "one" > tests/cases.txt
echo "news" > NEWS.md
exempt_forge
commit_all "initial"
with_origin

expect_run 0 md start "a test" --scope tests
git switch -q -c fix/b
echo "mine" >> tests/cases.txt
commit_all "a test"
git push -q -u origin fix/b
colleague "a colleague's note and test" 'echo "their note" >> NEWS.md && echo theirs >> tests/cases.txt'
git fetch -q
git merge -q --no-edit origin/main > /dev/null 2>&1 && fail "setup: the merge did not conflict"

# Conflicted: finishing is the task's to do, and said so.
expect_open committed "NEWS.md" owed
expect_advice committed
case "$(remedy_of committed)" in *"git commit -- "*) fail "the remedy names a partial commit: $(remedy_of committed)" ;; esac
expect_also scoped "merge in progress brings 1 path outside the scope .*NEWS.md" unknown
expect_also settled "merge" owed

# An edit of the task's own outside the scope, made during the merge, is refused.
echo "mine too" >> README
expect_open scoped "1 path changed since the start lies outside the scope tests.*: README" refused
rm README

# Written, not yet marked resolved: still advice. Marked resolved: the
# remedy runs as written and finishes the merge.
printf 'one\nmine\ntheirs\n' > tests/cases.txt
expect_open committed "NEWS.md" owed
expect_advice committed
git add tests/cases.txt
expect_open committed "NEWS.md, tests/cases.txt" owed
follow_remedy committed
[ -z "$(git rev-parse -q --verify MERGE_HEAD)" ] || fail "the merge is still in progress"
[ "$(git rev-list --count --merges HEAD)" = 1 ] || fail "no merge commit was made"
expect_status committed pass
expect_answer scoped pass "inside the scope"
expect_also settled "." pass
git push -q origin fix/b

# A cherry-pick stopped on a conflict: the same, with --continue.
colleague "a colleague's second test" 'echo "theirs again" >> tests/cases.txt'
echo "mine again" >> tests/cases.txt
commit_all "another test"
git fetch -q
git cherry-pick origin/main > /dev/null 2>&1 && fail "setup: the cherry-pick did not conflict"
expect_open settled "cherry-pick is in progress" owed
printf 'one\nmine\ntheirs\nmine again\ntheirs again\n' > tests/cases.txt
git add tests/cases.txt
expect_open committed "tests/cases.txt" owed
follow_remedy committed
[ -z "$(git rev-parse -q --verify CHERRY_PICK_HEAD)" ] || fail "the cherry-pick is still in progress"
expect_status committed pass
expect_also settled "." pass
