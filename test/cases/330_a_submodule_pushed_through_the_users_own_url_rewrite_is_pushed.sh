# The user's own configuration rewrites URLs (a mirror, or https to ssh:
# `git config --global url.<mirror>.insteadOf https://...`), there before
# the task. The submodule lib's remote then fetches from and pushes to the
# rewritten URL, and the URL .gitmodules names is rewritten alike: a push
# of lib's commit there is pushed. A rewrite in lib's own configuration
# is no such rule (test/cases/323).
source "$(dirname "$0")/../lib.sh"

# libgit2 reads the user's configuration from $HOME/.gitconfig, git from
# GIT_CONFIG_GLOBAL: the same file for both.
export GIT_CONFIG_GLOBAL="$HOME/.gitconfig"
git config --global url."$case_root/".insteadOf "https://git.example.invalid/"
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=protocol.file.allow GIT_CONFIG_VALUE_0=always
git init -q --bare -b main "$case_root/lib.git"
git clone -q "$case_root/lib.git" "$case_root/seed" 2> /dev/null
(cd "$case_root/seed" && git commit -q --allow-empty -m lib && git push -q origin HEAD:main)
echo base > README
exempt_forge
commit_all "initial"
with_origin
git submodule --quiet add https://git.example.invalid/lib.git lib
commit_all "lib"
git push -q origin main
expect_run 0 md start "use lib's new function"

(cd lib && echo 'pub fn new() {}' > new.rs && git add new.rs && git commit -qm "lib: new")
mkdir -p tests
echo t > tests/new.rs
git add lib tests
git commit -qm "use lib's new function"
git push -q origin main
expect_open pushed "lib" "owed"
git -C lib push -q origin HEAD:main
expect_answer pushed "pass" "lib"
expect_run 0 md check
