#!/usr/bin/env bash
# Git writes a remote-tracking ref on its own say-so, and some ordinary
# commands make it say what the remote never heard: a push under a push URL
# given for one command (`git -c remote.origin.pushurl=ELSEWHERE push`), or
# set in the user's configuration file, or in `.git/config` and unset after
# (the reflog says `update by push`); a fetch from this repository under
# the remote's name (`git -c url.HERE.insteadOf=ORIGIN fetch origin`, or the
# URL re-pointed at it and back: the reflog says `fetch origin`). Nothing of
# either stays in this repository to read. A remote on this machine is read
# itself: origin/main counts only at a commit origin's own main holds, so
# each of these is owed, named, and a real push passes. A ref behind its
# remote (a colleague pushed since the last fetch) is behind, not wrong;
# a branch the remote deleted is gone.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
origin="$case_root/origin.git"
git init -q --bare -b main "$case_root/elsewhere.git"
elsewhere="$case_root/elsewhere.git"
commit_a_feature
here=$(git rev-parse HEAD)

# A push URL given for one command.
git -c remote.origin.pushurl="$elsewhere" push -q origin main
[ "$(git rev-parse origin/main)" = "$here" ] || fail "git moved origin/main on the push elsewhere"
expect_open pushed "origin's own repository on this machine, .*origin.git, holds main at" owed
expect_also integrated "does not reach HEAD" owed
expect_run 10 md check

# Set in the user's configuration file, one GIT_CONFIG_GLOBAL names
# (not ~/.gitconfig), and left there.
git update-ref refs/remotes/origin/main "$(git -C "$origin" rev-parse main)"
cp "$HOME/.gitconfig" "$case_root/user.gitconfig"
export GIT_CONFIG_GLOBAL="$case_root/user.gitconfig"
git config --global remote.origin.pushurl "$elsewhere"
git push -q origin main
expect_open pushed "holds main at|push URL of origin changed" owed
git config --global --unset remote.origin.pushurl
export GIT_CONFIG_GLOBAL="$HOME/.gitconfig"

# Set in .git/config for the push and unset after.
git update-ref refs/remotes/origin/main "$(git -C "$origin" rev-parse main)"
git config remote.origin.pushurl "$elsewhere"
git push -q origin main
git config --unset remote.origin.pushurl
expect_open pushed "holds main at" owed

# Fetched from this repository under origin's name: the URL rewritten for
# one command, then the URL re-pointed here and back.
git update-ref refs/remotes/origin/main "$(git -C "$origin" rev-parse main)"
git -c url."$repo".insteadOf="$origin" fetch -q origin
[ "$(git rev-parse origin/main)" = "$here" ] || fail "the fetch from here did not fill origin/main"
expect_open pushed "holds main at" owed
expect_also integrated "does not reach HEAD" owed
git update-ref refs/remotes/origin/main "$(git -C "$origin" rev-parse main)"
git remote set-url origin "$repo"
git fetch -q origin
git remote set-url origin "$origin"
expect_open pushed "holds main at" owed

# The real push.
git push -q origin main
expect_answer pushed pass "origin/main"
expect_answer integrated pass "reaches HEAD"

# A colleague pushes after it: origin/main here is behind, still evidence.
git clone -q "$origin" "$case_root/colleague"
(cd "$case_root/colleague" && echo c > c.txt && git add c.txt && git commit -qm colleague && git push -q origin main)
expect_answer pushed pass "origin/main"

# A branch pushed, then deleted on the remote (not yet pruned here): gone.
git checkout -q -b feat
echo f > f.txt
commit_all "feat"
git push -q -u origin feat
expect_answer upstream-alive pass ""
git -C "$origin" branch -q -D feat
expect_open upstream-alive "has no branch feat" owed
expect_also pushed "feat" owed
