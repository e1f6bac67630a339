#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The task commits inside the submodule lib, pushes lib's commit to lib's
# remote (../lib.git, as .gitmodules named it at the start), records the
# bump, and re-points lib in .gitmodules, committed and pushed, at another
# repository that lacks the commit. The bump was read by the start's URL
# (lib's origin holds it), so pushed passed and `done: complete` while a
# fresh `git clone --recurse-submodules` of the pushed work fails: a clone
# fetches lib from the URL the committed .gitmodules names. The bump is
# asked where that URL points: read there on this machine (owed where it
# lacks the commit), unknown naming both URLs across a network with no
# remote of lib's pointing there; the way out (`git submodule sync`, then
# the push there) passes, as does the URL named as before.

fresh_clone() {
  rm -rf "$case_root/fresh"
  git clone -q --recurse-submodules "$case_root/origin.git" "$case_root/fresh" > /dev/null 2>&1
}

lib_bump_pushed_without_lib
git -C lib push -q origin HEAD:main
expect_answer pushed pass "lib points at .*origin/main holds"
git clone -q --bare "$case_root/seed" "$case_root/libB.git" 2> /dev/null

# Re-pointed (relative, as git resolves it against origin) at libB.git,
# which lacks the commit.
git config -f .gitmodules submodule.lib.url ../libB.git
git commit -qam "lib moves to libB" && git push -q origin main
fresh_clone && fail "setup: a fresh clone fetched lib's commit from libB.git"
expect_open pushed "lib points at .*gitmodules names .*/libB\.git for it now, not .*/lib\.git as at the start.*holds no branch or tag that holds" "owed"
remedy_of pushed | grep -q "git submodule sync -- lib && git -C lib push origin HEAD:refs/heads/BRANCH" ||
  fail "the remedy does not name the sync and the push: $(remedy_of pushed)"
expect_run 10 md check

# Named as at the start again: the ordinary reading, the commit held.
git config -f .gitmodules submodule.lib.url ../lib.git
git commit -qam "lib back at lib.git" && git push -q origin main
fresh_clone || fail "a fresh clone failed with lib at lib.git"
expect_answer pushed pass "lib points at .*origin/main holds"
expect_run 0 md check

# .gitmodules naming no URL for lib: a clone cannot fetch it.
git config -f .gitmodules --unset submodule.lib.url
git commit -qam "lib unnamed" && git push -q origin main
fresh_clone && fail "setup: a fresh clone fetched lib with no URL named"
expect_open pushed "gitmodules names no URL for it now" "owed"

# Across a network (git daemon serving libB.git), with no remote of lib's
# pointing there: what it holds cannot be read, and is not taken as held.
serve_by_git_daemon libB.git
git config -f .gitmodules submodule.lib.url "git://127.0.0.1:$port/libB.git"
git commit -qam "lib served from libB" && git push -q origin main
fresh_clone && fail "setup: a fresh clone fetched lib's commit from the daemon's libB.git"
expect_open pushed "gitmodules names git://127.0.0.1:$port/libB.git for it now, not .*/lib\.git as at the start.*cannot be read.*across a network" "unknown"
remedy_of pushed | grep -q "git submodule sync -- lib" || fail "the remedy does not name the sync: $(remedy_of pushed)"
expect_run 10 md check

# The way out: lib's remote pointed where .gitmodules names it, the commit
# pushed there; a fresh clone gets it.
git submodule --quiet sync -- lib
git -C lib push -q origin HEAD:refs/heads/main
fresh_clone || fail "a fresh clone failed after the push to libB"
expect_answer pushed pass "lib points at .*gitmodules names git://.*libB\.git.*its origin/main holds it"
expect_run 0 md check
