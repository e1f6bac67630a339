#!/usr/bin/env bash
# The superproject's working tree is read as the start read it: a bit, an
# ignore rule or a setting set since hides nothing (test/cases/151-156,
# 401). A submodule checked out here was read as git reads it now, so the
# same commands run inside it hid the task's work there: `git -C lib
# update-index --assume-unchanged` (or `--skip-worktree`) over an edit, a
# new file hidden by a line in lib's `info/exclude` or by a rule committed
# in lib's `.gitignore`, each read `done: complete` with the work
# uncommitted in lib. A submodule is read as its own start read it (the
# start keeps each submodule's reading beside its refs); a bit or rule lib
# held at the start still hides what it hid.
source "$(dirname "$0")/../lib.sh" || exit 2

superproject_with_lib
echo 'scratch/' >> "$(git -C lib rev-parse --git-dir)/info/exclude"
mkdir -p lib/scratch && echo 'mine' > lib/scratch/notes.txt
expect_run 0 md start "use lib"
mkdir -p tests && echo t > tests/t.rs
git add tests && git commit -qm "a test" && git push -q origin main
expect_run 0 md check

echo wip >> lib/l.txt
expect_open committed "lib" owed
git -C lib update-index --assume-unchanged l.txt
[ -z "$(git status --porcelain)" ] || fail "setup: git still shows lib"
expect_open committed "lib" owed
expect_run 10 md check
git -C lib update-index --no-assume-unchanged l.txt
git -C lib update-index --skip-worktree l.txt
[ -z "$(git status --porcelain)" ] || fail "setup: git still shows lib"
expect_open committed "lib" owed
git -C lib update-index --no-skip-worktree l.txt
git -C lib checkout -q -- l.txt
expect_run 0 md check

echo 'pub fn h() {}' > lib/helper.rs
expect_open committed "lib" owed
echo 'helper.rs' >> "$(git -C lib rev-parse --git-dir)/info/exclude"
[ -z "$(git status --porcelain)" ] || fail "setup: git still shows lib"
expect_open committed "lib" owed
sed -i '/helper.rs/d' "$(git -C lib rev-parse --git-dir)/info/exclude"

(cd lib && echo 'helper.rs' > .gitignore && git add .gitignore && git commit -qm "ignore" && git push -q origin HEAD:main)
git add lib && git commit -qm "lib" && git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: git still shows lib"
expect_open committed "lib" owed
expect_run 10 md check
