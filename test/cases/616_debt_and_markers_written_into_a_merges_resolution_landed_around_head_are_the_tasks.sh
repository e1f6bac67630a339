#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# 592 with the debt written into a merge: in a linked worktree made for the
# work, a side branch is merged with `git merge --no-ff --no-commit`, and
# the resolution adds a lint entry and a `LIMITATION(#9)` line (#9 closed)
# before the merge is committed and pushed onto origin's main; the worktree
# is removed and its branches deleted, HEAD left at the start. The commits
# made around HEAD were read for debt and markers only where they had one
# parent ("a merge's change is not its own"): no-new-debt and
# markers-live passed while the trunk held both. A merge's change is its
# own where it differs from every side (as `scoped` reads it, 492): an
# entry or a marker line counts past the copies each side held, so what a
# merge took from the trunk (a colleague's entry and marker) is not the
# task's.

parse_project_beside_a_fake_gh
on_forge acme/widgets 9 closed limitation
on_forge acme/widgets 10 open limitation
mkdir -p .ai/repo
printf 'src/old.rs: unwrap\nsrc/older.rs: unwrap\nsrc/oldest.rs: unwrap\n' > .ai/repo/lint-baseline.txt
commit_all "a lint baseline"
git push -q origin main
expect_run 0 md forge refresh
expect_run 0 md start "parse the trailer"
expect_run 0 md todo add "land the trailer"
expect_run 0 md todo done 1

git worktree add -q "$case_root/wt" -b fix origin/main
(cd "$case_root/wt" &&
  sed -i '/^src\/old\.rs:/d' .ai/repo/lint-baseline.txt &&
  git add -A && git commit -qm "pay off old.rs")

# Honest: a colleague's entry and marker on the trunk, merged in from it
# (the merge differs from both sides under .ai/repo).
colleague "peer debt" "printf 'src/peer.rs: unwrap\n' >> .ai/repo/lint-baseline.txt && printf '// %s(#9): the peer\n' $L > src/peer.rs"
(cd "$case_root/wt" && git fetch -q origin && git merge -q --no-ff --no-edit origin/main >/dev/null &&
  git push -q origin fix:main)
git fetch -q origin
expect_run 0 md forge refresh
expect_answer no-new-debt pass "No entry was added"
expect_answer markers-live pass "No limitation marker was added"

# The task's own debt, written into a merge's resolution.
(cd "$case_root/wt" &&
  git checkout -q -b side && mkdir -p tests && echo '#[test] fn t() {}' > tests/trailer.rs && git add -A && git commit -qm "the trailer's test" &&
  git checkout -q fix && git merge -q --no-ff --no-commit side >/dev/null 2>&1 &&
  printf 'pub fn trailer() { x.unwrap() } // %s(#9): extension fields are not parsed\n' "$L" >> src/lib.rs &&
  printf 'src/lib.rs: unwrap\n' >> .ai/repo/lint-baseline.txt &&
  git add -A && git commit -q --no-edit && git push -q origin fix:main)
git worktree remove "$case_root/wt"
git branch -q -D fix side
git fetch -q origin
[ "$(git rev-list --parents -n 1 origin/main | wc -w)" = 3 ] || fail "the trunk's tip is not the merge"
git show origin/main:.ai/repo/lint-baseline.txt | grep -q 'src/lib.rs: unwrap' || fail "the trunk does not hold the entry"
expect_run 0 md forge refresh
expect_open no-new-debt "on the trunk .*src/lib.rs: unwrap" refused
case "$(evidence_of no-new-debt)" in *src/peer.rs*) fail "a colleague's entry counted" ;; esac
expect_also markers-live "src/lib.rs:[0-9]+ .*#9.*on the trunk, added by [0-9a-f]{12}.*is closed" refused
case "$(evidence_of markers-live)" in *src/peer.rs*) fail "a colleague's marker counted" ;; esac
expect_run 10 md check

# The honest way: the trunk brought here, the entry paid off, the marker
# pointed at a live issue, pushed.
git pull -q --ff-only origin main
sed -i "s/$L(#9): extension/$L(#10): extension/; s/x.unwrap()/x.ok()/" src/lib.rs
grep -v '^src/lib.rs: unwrap$' .ai/repo/lint-baseline.txt > b && mv b .ai/repo/lint-baseline.txt
commit_all "the trailer's limitation is #10, no unwrap"
git push -q origin main
expect_run 0 md forge refresh
expect_answer no-new-debt pass "No entry was added"
expect_answer markers-live pass "names #10, open and labelled limitation"
