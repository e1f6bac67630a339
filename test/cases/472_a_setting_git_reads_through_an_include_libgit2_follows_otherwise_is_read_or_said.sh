#!/usr/bin/env bash
# The working tree is read by libgit2, which follows `includeIf` otherwise
# than git: it does not evaluate `hasconfig:remote.*.url:` (git 2.36), and
# matches `gitdir:` only against the git directory's real path where git
# also matches the path as reached (a working tree reached through a
# symbolic link, `~/work -> /data/work`). A core.fileMode turned back on, or
# a core.excludesFile of its own, set in such an include was missed:
# `git status` listed the mode change or the new file, and `committed` or
# `no-untracked` passed. The configuration is read as git reads it
# (majordomus follows the includes itself), and where libgit2's reading of
# the working tree would obey a key set otherwise, the reading is unknown,
# naming the key and the include, until the key is set without the
# condition. An include that sets nothing the reading obeys (user.email,
# the usual use) changes nothing, nor one libgit2 follows as git does.
source "$(dirname "$0")/../lib.sh" || exit 2

printf '#!/bin/sh\n' > run.sh
echo base > README
exempt_forge
commit_all "initial"
with_origin
git config core.fileMode false
printf 'notes.md\n' > "$case_root/personal-ignore"
: > "$case_root/work-ignore"
git config --global core.excludesFile "$case_root/personal-ignore"

# Honest: a hasconfig include for who commits, a gitdir include on the
# real path for the excludes file; libgit2 follows the second as git does.
printf '[user]\n\temail = me@host.example\n' > "$case_root/who.conf"
git config 'includeIf.hasconfig:remote.*.url:**.path' "$case_root/who.conf"
printf '[core]\n\texcludesFile = %s\n' "$case_root/personal-ignore" > "$case_root/real.conf"
git config "includeIf.gitdir:$repo/.path" "$case_root/real.conf"
expect_run 0 md start "make run.sh executable"
expect_run 0 md todo add "run.sh"
expect_run 0 md todo done 1
echo "the work" > README
echo scratch > notes.md
commit_all "the work"
[ "$(git status --porcelain -uall)" = "" ] || fail "setup: git status: $(git status --porcelain -uall)"
expect_answer committed pass ""
expect_answer no-untracked pass ""

# hasconfig: core.fileMode true again, for this host's repositories.
printf '[core]\n\tfileMode = true\n' > "$case_root/host.conf"
git config --add 'includeIf.hasconfig:remote.*.url:**.path' "$case_root/host.conf"
[ "$(git config core.fileMode)" = true ] || fail "setup: git does not read the include"
chmod +x run.sh
[ "$(git status --porcelain -uall)" = " M run.sh" ] || fail "setup: git status: $(git status --porcelain -uall)"
expect_open committed "core.filemode.*hasconfig:remote.*host.conf" unknown
# The remedy the reason names: the key set without the condition.
git config core.fileMode true
expect_open committed "run.sh" owed
commit_all "run.sh is executable"
expect_answer committed pass ""

# gitdir through a symbolic link: the repository reached as the user
# names it, its excludes file set for that path.
ln -s "$repo" "$case_root/link"
cd "$case_root/link"
printf '[core]\n\texcludesFile = %s\n' "$case_root/work-ignore" > "$case_root/work.conf"
git config "includeIf.gitdir:$case_root/link/.path" "$case_root/work.conf"
[ "$(git status --porcelain -uall)" = "?? notes.md" ] || fail "setup: git status: $(git status --porcelain -uall)"
expect_open no-untracked "core.excludesfile.*gitdir:$case_root/link/.*work.conf" unknown
out=$(evidence_of no-untracked)
expect_not_contains "who.conf"
# The remedy the reason names for gitdir: the pattern on the real path.
git config --unset "includeIf.gitdir:$case_root/link/.path"
git config --add "includeIf.gitdir:$repo/.path" "$case_root/work.conf"
[ "$(git status --porcelain -uall)" = "?? notes.md" ] || fail "setup: git status: $(git status --porcelain -uall)"
expect_open no-untracked "notes.md" owed
rm notes.md
expect_answer no-untracked pass ""
