#!/usr/bin/env bash
# A configuration file git cannot parse (a section header left open, in a
# file .git/config includes, in .git/config itself, or in the user's
# ~/.gitconfig) makes libgit2 refuse the repository as git does. The open
# then fell to "not inside a git repository": `check` exited 2 saying so,
# and the stop hook, finding no repository, let the stop through in silence
# with the task's work unpushed. As for core.bare (test/cases/282), a
# repository that is there but cannot be opened is named: `check` answers
# unknown saying its configuration cannot be parsed, with the file and line,
# and where a task stands the stop is blocked with that reason.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
commit_all "policy"
with_origin
expect_run 0 md start "fix a"
mkdir -p src
echo "work" > src/work.txt
mkdir -p tests && echo '#[test] fn a_is_fixed() {}' > tests/a.rs
commit_all "work"

# A file the repository's configuration includes, with one typo.
printf '[core\n\tpager = less\n' > .git/extra.cfg
git config include.path extra.cfg
stop_hook "$repo"
[ "$(hook_decision)" = block ] || fail "the stop went through with the task open and its work unpushed"
expect_contains "cannot be parsed"
expect_contains "extra.cfg:1"
stop_hook_of s-2 "$repo/src"
[ "$(hook_decision)" = block ] || fail "the stop from a subdirectory went through"
expect_run 10 md check
expect_contains "cannot be parsed"
expect_contains "extra.cfg:1"
expect_not_contains "not inside a git repository"
expect_not_contains "done: complete"
git config --unset include.path 2>/dev/null || sed -i '/include/,$d' .git/config
rm .git/extra.cfg

# One bad line in .git/config itself.
cp .git/config "$case_root/config.good"
printf '[remote "origin"\n' >> .git/config
stop_hook_of s-3 "$repo"
[ "$(hook_decision)" = block ] || fail "the stop went through with a bad line in .git/config"
expect_contains "cannot be parsed"
(cd src && expect_run 10 md check && expect_contains "cannot be parsed") || fail "check from a subdirectory: $out"
cp "$case_root/config.good" .git/config

# One bad line in the user's configuration.
cp "$HOME/.gitconfig" "$case_root/global.good"
printf '[user\n' >> "$HOME/.gitconfig"
stop_hook_of s-4 "$repo"
[ "$(hook_decision)" = block ] || fail "the stop went through with a bad line in ~/.gitconfig"
expect_contains "cannot be parsed"
cp "$case_root/global.good" "$HOME/.gitconfig"

# The configuration mended: the task's honest answers again.
expect_open pushed "main" owed
git push -q
expect_run 0 md check
expect_done_line "done: complete (15 pass, 4 exempt)"
