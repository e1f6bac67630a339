#!/usr/bin/env bash
# A configuration key written without `=` (`[pull]` then a line `rebase`)
# is valid git: git reads it as a boolean true, and as a missing value only
# where the key is used as a string. git2's ConfigEntry::value panics on
# one, and the configuration is read entry by entry on every open: with one
# in the user's ~/.gitconfig or in .git/config, `start`, `check` and the
# stop hook crashed (exit 13), so no task could be started or judged, and
# only editing the user's own configuration got out. Every entry is asked
# whether it has a value before its value is read; a key libgit2 reads as
# a string (`core.autocrlf`) is `true` where it has none, as git reads it.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
commit_all "policy"
with_origin
printf '[pull]\n\trebase\n' >> "$HOME/.gitconfig"
printf '[rebase]\n\tautoStash\n' >> .git/config
[ "$(git config --get --bool pull.rebase)" = true ] || fail "setup: git does not read the key as true"
[ "$(git config --get --bool rebase.autostash)" = true ] || fail "setup: git does not read the key as true"

expect_run 0 md start "fix a"
echo "fixed" > work.txt
mkdir -p tests && echo '#[test] fn a_is_fixed() {}' > tests/a.rs
# The work uncommitted: owed, and the stop blocked.
expect_open no-untracked "work.txt" owed
stop_hook "$repo"
[ "$(hook_decision)" = block ] || fail "the stop went through with the work uncommitted"

# The work committed and pushed: the honest answer is reached.
commit_all "fix a"
git push -q
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
stop_hook "$repo"
[ "$(hook_decision)" != block ] || fail "the stop was blocked on finished work"
