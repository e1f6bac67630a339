#!/usr/bin/env bash
# Debt the task landed on the trunk from a branch since deleted, HEAD left
# at the start commit: the working tree never shows the entry, but the
# trunk holds it, and the commit that added it was made here. Refused,
# naming the commit; taking the entry out on the trunk clears it.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
exempt_forge
printf 'src/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"

git checkout -q -b debt
echo "fn a() { x.unwrap() }" > src/lib.rs
printf 'src/lib.rs: unwrap\n' >> .ai/repo/lint-baseline.txt
echo "#[test] fn t(){}" > tests/a.rs
commit_all "fix a, with a lint entry"
git push -q origin debt:main
git checkout -q main
git branch -q -D debt
git fetch -q origin
expect_open no-new-debt "on the trunk .*src/lib.rs: unwrap" refused

# A colleague's entry on the trunk (under the colleague's address) is not the task's.
git clone -q "$case_root/origin.git" "$case_root/peer"
(cd "$case_root/peer" && export GIT_AUTHOR_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com && printf 'src/peer.rs: unwrap\n' >> .ai/repo/lint-baseline.txt \
  && git commit -q -am "peer debt" && git push -q origin main)
git fetch -q origin
expect_open no-new-debt "src/lib.rs: unwrap" refused
case "$(evidence_of no-new-debt)" in *src/peer.rs*) fail "a colleague's entry counted" ;; esac

# The entry taken out on the trunk: nothing landed remains.
(cd "$case_root/peer" && git pull -q && grep -v 'src/lib.rs' .ai/repo/lint-baseline.txt > b && mv b .ai/repo/lint-baseline.txt \
  && git commit -q -am "take the entry out" && git push -q origin main)
git fetch -q origin
expect_answer no-new-debt pass "No entry was added"
