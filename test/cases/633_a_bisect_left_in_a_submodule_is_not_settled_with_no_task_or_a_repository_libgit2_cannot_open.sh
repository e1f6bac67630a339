#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# `settled` read the submodules only through the task's record and only
# where libgit2 could open them: with no task started (`settled` needs
# none), or in a submodule cloned with its refs in the reftable format
# (`git clone --ref-format=reftable`, which libgit2 cannot open), a
# `git -C lib bisect start` never reset read `settled=pass`, while
# `git -C lib status` says "You are currently bisecting". What is in
# progress in a submodule is read from its git directory's files, as git
# reads them, task or not, libgit2 or not.

pushed_project --libsrc
git -c protocol.file.allow=always submodule add -q "$case_root/libsrc" lib
commit_all "lib"
git push -q origin main
expect_answer settled pass ""
git -C lib bisect start > /dev/null
git -C lib status | grep -q "You are currently bisecting" || fail "git -C lib status does not say lib is bisecting"
expect_open settled "bisect in lib" owed
git -C lib bisect reset > /dev/null 2>&1
expect_answer settled pass ""

# A second submodule cloned with its refs in the reftable format, its git
# directory then absorbed into the superproject's (a `.git` file names it).
git clone -q --ref-format=reftable "$case_root/libsrc" vendor
git -c protocol.file.allow=always submodule add -q "$case_root/libsrc" vendor > /dev/null
git submodule -q absorbgitdirs vendor > /dev/null 2>&1
[ -f vendor/.git ] && [ "$(git -C vendor config extensions.refStorage)" = reftable ] || fail "vendor is not an absorbed reftable repository"
commit_all "vendor"
git push -q origin main
expect_run 0 md start "look into vendor"
expect_answer settled pass ""
git -C vendor bisect start > /dev/null
expect_open settled "bisect in vendor" owed
expect_run 0 bash -c "$(remedy_of settled)"
expect_answer settled pass ""
# Its git directory moved away: what is in progress there is unknown, not nothing.
mv .git/modules/vendor "$case_root/vendor-moved"
expect_open settled "vendor.*not there" unknown
# Its `.git` made a FIFO: read without blocking, a file that cannot be
# read (a read that waited would hang every check, with or without a task).
rm -f vendor/.git
mkfifo vendor/.git
expect_run 10 timeout 20 "$MAJORDOMUS" check
expect_open settled "vendor/.git.*FIFO" unknown
