# `git add sub` of a repository inside the working tree, with no
# .gitmodules (git warns of an "embedded repository"), commits a gitlink:
# the superproject, pushed, then points at a commit only this disk holds.
# pushed asked only of the submodules .gitmodules names and passed. The
# index's gitlinks are submodules too: owed, naming it.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
mkdir -p tests
echo t > tests/a.rs
git init -q sub
(cd sub && echo s > s && git add s && git commit -qm "sub work")
git add tests sub 2> /dev/null
git commit -qm "feature with an embedded repository"
git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: the working tree is not clean"
expect_open pushed "sub" "owed"
expect_run 10 md check
