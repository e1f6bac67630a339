#!/usr/bin/env bash
# GIT_CONFIG_GLOBAL names the user's configuration file (as CI, dotfile
# managers and lib.sh's hermetic git do); majordomus hands that file to
# libgit2 without the repository, and libgit2 follows no conditional
# include in it. The usual `[includeIf "gitdir:~/work/"] path =
# ~/.gitconfig-work` there set a core.excludesFile git reads for this
# repository; the default ignore file stayed in force for majordomus, and
# `no-untracked` passed over a file `git status` listed. The includes of
# that file are followed as git follows them: where the included file sets
# a key the working tree's reading obeys, the reading is unknown, naming
# the key and the include, until the key is set without the condition;
# one that sets only user.email changes nothing.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
mkdir -p "$HOME/.config/git"
printf 'notes.md\n' > "$HOME/.config/git/ignore"
: > "$HOME/.gitignore-work"

# Honest: the include sets who commits, nothing the reading obeys.
printf '[user]\n\temail = me@work.example\n' > "$HOME/.gitconfig-work"
git config --global "includeIf.gitdir:$case_root/.path" "~/.gitconfig-work"
[ "$(git config user.email)" = me@work.example ] || fail "setup: git does not read the include"
expect_run 0 md start "write notes"
echo "the work" > README
echo scratch > notes.md
commit_all "the work"
[ "$(git status --porcelain -uall)" = "" ] || fail "setup: git status: $(git status --porcelain -uall)"
expect_answer no-untracked pass ""
expect_answer committed pass ""

# The included file's excludes file replaces the default one for git.
printf '[user]\n\temail = me@work.example\n[core]\n\texcludesFile = ~/.gitignore-work\n' > "$HOME/.gitconfig-work"
[ "$(git status --porcelain -uall)" = "?? notes.md" ] || fail "setup: git status: $(git status --porcelain -uall)"
expect_open no-untracked "core.excludesfile.*gitdir:$case_root/.*GIT_CONFIG_GLOBAL" unknown
# The remedy the reason names: the key set without the condition.
git config core.excludesFile "~/.gitignore-work"
expect_open no-untracked "notes.md" owed
rm notes.md
expect_answer no-untracked pass ""
