#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# markers-live read the markers on lines the change added, in the working
# tree and HEAD's commit. A marker naming a closed issue, committed on a
# branch, pushed onto the trunk (`git push origin fix:main`), HEAD taken
# back to main at the start and the branch deleted, was in no file here:
# markers-live passed, `done: complete` with a todo done, while the trunk
# held it. The commits made here since the start that HEAD does not reach
# are read where HEAD does not reach the trunk's tip (as no-new-debt reads
# the debt landed so, 445): a marker one of them added that the trunk's tip
# holds is a marker added, named with the commit.

parse_project_beside_a_fake_gh
on_forge acme/widgets 9 closed limitation
on_forge acme/widgets 10 open limitation
expect_run 0 md forge refresh
expect_run 0 md start "parse the trailer"
expect_run 0 md todo add "land the trailer"
expect_run 0 md todo done 1

git checkout -q -b fix
printf 'pub fn trailer() {} // %s(#9): extension fields are not parsed\n' "$L" >> src/lib.rs
echo '#[test] fn t() {}' > tests/trailer.rs
commit_all "parse the trailer"
git push -q origin fix:main
git checkout -q main
git branch -q -D fix
git fetch -q origin
[ "$(git show origin/main:src/lib.rs | grep -c "$L(#9)")" = 1 ] || fail "the trunk does not hold the marker"

# The refresh asks of the issue the landed marker names.
expect_run 0 md forge refresh
grep -q '^issue view 9 ' "$fake/calls" || fail "the refresh did not ask of #9"
expect_open markers-live "src/lib.rs:2 .*#9.*on the trunk, added by [0-9a-f]{12}.*is closed" refused
expect_run 10 md check

# A colleague's marker on the trunk (under the colleague's address) is not the task's.
git clone -q "$case_root/origin.git" "$case_root/peer"
(cd "$case_root/peer" && export GIT_AUTHOR_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com && printf '// %s(#9): the peer'"'"'s\n' "$L" > src/peer.rs &&
  git add -A && git commit -q -m "peer marker" && git push -q origin main)
git fetch -q origin
expect_open markers-live "src/lib.rs" refused
case "$(evidence_of markers-live)" in *src/peer.rs*) fail "a colleague's marker counted" ;; esac

(cd "$case_root/peer" && git rm -q src/peer.rs && git commit -q -m "peer marker gone" && git push -q origin main)

# The honest way: the trunk brought here, the marker pointed at a live
# issue, pushed.
git pull -q --ff-only origin main
sed -i "s/$L(#9)/$L(#10)/" src/lib.rs
commit_all "the trailer's limitation is #10"
git push -q origin main
expect_run 0 md forge refresh
expect_answer markers-live pass "names #10, open and labelled limitation"
