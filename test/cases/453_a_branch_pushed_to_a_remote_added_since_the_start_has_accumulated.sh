#!/usr/bin/env bash
# A remote added since the start is no evidence of what it holds, so its
# refs were not read at all: a branch the task pushed there (`git remote
# add backup URL; git push backup HEAD:wip`) was left unseen. Its
# remote-tracking ref's first reflog line says a push from here made it:
# accumulated, counted or not; deleted there, it is gone.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
exempt_forge
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
git init -q --bare -b main "$case_root/backup.git"
expect_run 0 md start "fix a"
mkdir -p tests
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
commit_all "fix a"
git push -q origin main
git remote add backup "$case_root/backup.git"
git push -q backup HEAD:refs/heads/wip
expect_open nothing-accumulated "backup's branch wip" owed

git push -q backup --delete wip
expect_answer nothing-accumulated pass ""
