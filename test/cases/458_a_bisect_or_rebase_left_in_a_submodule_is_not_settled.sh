#!/usr/bin/env bash
# `settled` read only the repository around: a `git -C lib bisect start`
# never reset, or an interactive rebase stopped inside the submodule at
# the commit the superproject records, left `git status` of the
# superproject clean and read `done: complete`. Each submodule checked out
# here is read as the repository around it is.
source "$(dirname "$0")/../lib.sh" || exit 2

pushed_project --libsrc
git -c protocol.file.allow=always submodule add -q "$case_root/libsrc" lib
commit_all "lib"
git push -q origin main
expect_run 0 md start "look into lib"
expect_answer settled pass ""
git -C lib bisect start > /dev/null
expect_open settled "bisect in lib" owed
git -C lib bisect reset > /dev/null 2>&1
expect_answer settled pass ""
