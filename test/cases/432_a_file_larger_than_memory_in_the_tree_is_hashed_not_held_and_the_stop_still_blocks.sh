#!/usr/bin/env bash
# Every reading of a working-tree file's content hashed it whole: a disk
# image or a dataset left untracked (`truncate -s 32G disk.img`) made
# `start`, `check` and `hook stop` ask for its size in memory, and abort
# (exit 134, nothing on stdout: a host lets such a stop through). A file's
# blob id is hashed as it is read, a buffer at a time, and nothing reads a
# file larger than 256 MiB whole. Here, under a 700 MB address-space limit,
# a 1 GiB untracked file (sparse, no disk) is read and named.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
expect_run 0 md start "a feature"

truncate -s 1G disk.img
limited() { (ulimit -v 700000 && "$@"); }
expect_run 10 limited md check
expect_contains "no-untracked=owed"
expect_run 0 bash -c 'ulimit -v 700000 && printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ \
  "{\"session_id\":\"s-1\",\"transcript_path\":\"/dev/null\",\"cwd\":\"$PWD\",\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}"
[ "$(hook_decision)" = "block" ] || fail "the stop was not blocked"
expect_contains "disk.img"
