#!/usr/bin/env bash
# A repository of its own nested here, untracked at the start (git lists
# it as `vendor/dep/`), is inherited while what it holds is what it held
# then (test/cases/404). What governs its own listing is part of what it
# holds: a fix written inside it and then hidden by a rule added inside
# since (its `info/exclude`, a self-ignoring `.gitignore`), an edit there
# hidden by a bit set since (`--assume-unchanged`), or a mode change under
# `core.fileMode false` set since, is still no-untracked=owed. Put back as
# it was, it is inherited again.
source "$(dirname "$0")/../lib.sh" || exit 2

echo r > README
exempt_forge
commit_all "initial"
git init -q vendor/dep
(cd vendor/dep && echo 'fn d() {}' > d.rs && git add -A && git commit -q -m d)
cp vendor/dep/.git/info/exclude "$case_root/exclude"
cp vendor/dep/.git/config "$case_root/config"
expect_run 0 md start "fix the dependency"
expect_answer no-untracked pass "already untracked at the start"

echo 'fn fix() {}' > vendor/dep/fix.rs
echo fix.rs >> vendor/dep/.git/info/exclude
[ -z "$(git -C vendor/dep status --porcelain)" ] || fail "the rule did not hide the file from git"
expect_open no-untracked "vendor/dep/ \(a repository of its own, untracked at the start, changed inside since\)" owed
rm vendor/dep/fix.rs; cp "$case_root/exclude" vendor/dep/.git/info/exclude
expect_answer no-untracked pass "already untracked at the start"

echo 'fn fix() {}' > vendor/dep/fix.rs
printf '*\n' > vendor/dep/.gitignore
expect_open no-untracked "vendor/dep/" owed
rm vendor/dep/fix.rs vendor/dep/.gitignore

echo 'fn d() { fixed() }' > vendor/dep/d.rs
git -C vendor/dep update-index --assume-unchanged d.rs
[ -z "$(git -C vendor/dep status --porcelain)" ] || fail "the bit did not hide the edit from git"
expect_open no-untracked "vendor/dep/" owed
git -C vendor/dep update-index --no-assume-unchanged d.rs
git -C vendor/dep checkout -q d.rs

git -C vendor/dep config core.fileMode false
chmod +x vendor/dep/d.rs
expect_open no-untracked "vendor/dep/" owed
chmod -x vendor/dep/d.rs
cp "$case_root/config" vendor/dep/.git/config
expect_answer no-untracked pass "already untracked at the start"
