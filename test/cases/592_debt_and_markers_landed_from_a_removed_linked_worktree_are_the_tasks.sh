#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# test/cases/445 and 565 with the work done in a linked worktree made for
# it (`git worktree add ../wt -b fix`): a lint entry and a marker naming a
# closed issue committed there, pushed straight onto origin's main, the
# worktree removed and the branch deleted, HEAD left at the start. Only
# HEAD's reflog named the commits made around HEAD, and the linked
# worktree's went with it: no-new-debt and markers-live passed, and with a
# todo done `done: complete`, while the trunk held both. So did the same
# work from a branch of this worktree once `git reflog expire` and `git gc`
# rewrote HEAD's reflog.
#
# The rule, as scoped reads the work landed around HEAD (493, 494): where
# HEAD does not reach the trunk's tip, the commits this repository wrote
# since the start under its own address are read beside HEAD's reflog,
# and where that reflog was rewritten, every own commit on the trunk HEAD
# does not reach. A colleague's entry and marker on the trunk, fetched and
# not merged, are under the colleague's address: both still pass.

parse_project_beside_a_fake_gh
on_forge acme/widgets 9 closed limitation
on_forge acme/widgets 10 open limitation
mkdir -p .ai/repo
printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
commit_all "a lint baseline"
git push -q origin main
expect_run 0 md forge refresh
expect_run 0 md start "parse the trailer"
expect_run 0 md todo add "land the trailer"
expect_run 0 md todo done 1

# Honest: a colleague's entry and marker on the trunk, fetched, not merged.
colleague "peer debt" "printf 'src/peer.rs: unwrap\n' >> .ai/repo/lint-baseline.txt && printf '// %s(#9): the peer\n' $L > src/peer.rs"
git fetch -q origin
expect_answer no-new-debt pass "No entry was added"
expect_answer markers-live pass "No limitation marker was added"

git worktree add -q "$case_root/wt" -b fix origin/main
(cd "$case_root/wt" &&
  printf 'pub fn trailer() { x.unwrap() } // %s(#9): extension fields are not parsed\n' "$L" >> src/lib.rs &&
  printf 'src/lib.rs: unwrap\n' >> .ai/repo/lint-baseline.txt &&
  mkdir -p tests && echo '#[test] fn t() {}' > tests/trailer.rs &&
  git add -A && git commit -qm "parse the trailer" && git push -q origin fix:main)
git worktree remove "$case_root/wt"
git branch -q -D fix
git fetch -q origin
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

# From a branch of this worktree, HEAD's reflog rewritten since.
git checkout -q -b more
printf 'src/lib.rs: expect\n' >> .ai/repo/lint-baseline.txt
commit_all "one more lint"
git push -q origin more:main
git checkout -q main
git branch -q -D more
git fetch -q origin
git reflog expire --expire=now --all
git gc -q --prune=now
expect_open no-new-debt "on the trunk .*src/lib.rs: expect" refused
