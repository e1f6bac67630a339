# The user's own configuration rewrites URLs (a mirror, or https to ssh:
# `git config --global url.<mirror>.insteadOf https://...`), there before
# the task. The submodule lib's remote then fetches from and pushes to the
# rewritten URL, and the URL .gitmodules names is rewritten alike: a push
# of lib's commit there is pushed. A rewrite in lib's own configuration
# is no such rule (test/cases/323).
source "$(dirname "$0")/../lib.sh" || exit 2

# libgit2 reads the user's configuration from $HOME/.gitconfig, git from
# GIT_CONFIG_GLOBAL: the same file for both.
export GIT_CONFIG_GLOBAL="$HOME/.gitconfig"
git config --global url."$case_root/".insteadOf "https://git.example.invalid/"
lib_bump_pushed_without_lib https://git.example.invalid/lib.git
git -C lib push -q origin HEAD:main
expect_answer pushed "pass" "lib"
expect_run 0 md check
