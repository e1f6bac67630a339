#!/usr/bin/env bash
# git reads the user's configuration from the file GIT_CONFIG_GLOBAL names,
# and then neither ~/.gitconfig nor the XDG file; libgit2 reads those only
# for a repository opened from the environment, which majordomus does not
# do, so it read ~/.gitconfig whatever git read. A ~/.gitconfig git no
# longer reads, whose excludes file ignores *.rs, hid a new untracked
# source file from `no-untracked` while `git status` showed it (a false
# pass), and an excludes file set in the file git does read was not applied
# (a false owed). The reading agrees with `git status` under the same
# environment; GIT_CONFIG_SYSTEM and GIT_CONFIG_NOSYSTEM likewise.
source "$(dirname "$0")/../lib.sh" || exit 2

printf '*.rs\n' > "$HOME/stale-ignore"
printf '[core]\n\texcludesFile = %s\n' "$HOME/stale-ignore" >> "$HOME/.gitconfig"
printf '*.log\n' > "$case_root/user-ignore"
printf '[core]\n\texcludesFile = %s\n' "$case_root/user-ignore" > "$case_root/user.gitconfig"
printf '*.tmp\n' > "$case_root/system-ignore"
printf '[core]\n\texcludesFile = %s\n' "$case_root/system-ignore" > "$case_root/system.gitconfig"
export GIT_CONFIG_GLOBAL="$case_root/user.gitconfig" GIT_CONFIG_SYSTEM="$case_root/system.gitconfig"
start_on_origin
commit_a_feature
git push -q origin main

echo 'pub fn helper() {}' > src/helper.rs
echo trace > debug.log
echo scratch > notes.tmp
[ "$(git status --porcelain -uall)" = "$(printf '?? notes.tmp\n?? src/helper.rs')" ] ||
  fail "git status: $(git status --porcelain -uall)"
expect_open no-untracked "2 untracked files.*notes.tmp.*src/helper.rs" owed
expect_not_contains "$(evidence_of no-untracked)" "debug.log"
rm notes.tmp src/helper.rs
expect_answer no-untracked pass ""

# The system's file, once GIT_CONFIG_NOSYSTEM (which lib.sh sets) is
# false, is the one GIT_CONFIG_SYSTEM names (its excludes file in force
# once the user's file sets none): a task started so reads it.
expect_run 0 md finish --outcome completed
rm debug.log
printf '' > "$case_root/user.gitconfig"
export GIT_CONFIG_NOSYSTEM=0
expect_run 0 md start "another"
echo scratch > notes.tmp
[ -z "$(git status --porcelain -uall)" ] || fail "git status: $(git status --porcelain -uall)"
expect_answer no-untracked pass ""
