#!/usr/bin/env bash
# git reaches a local remote whose URL begins with `~/` or `~NAME/` under
# that home (the transport's `enter_repo` expands it), and keeps only the
# path of a `file://HOST/PATH` URL, whatever its host. Joined onto the
# working tree's root as written (`repo/~/origin.git`), the URL led to no
# repository, every ref of origin was set aside, and an honest push of the
# work left `pushed` unknown and `upstream-alive` owed for good. A local
# URL is resolved as git resolves it, in the one place majordomus turns a
# URL into a path: the honest push passes, and a remote on this machine is
# read itself, so a ref filled without it is still not taken at its word.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
git init -q --bare -b main "$HOME/origin.git"
git remote add origin '~/origin.git'
git push -q -u origin main
git remote set-head origin main
git branch feature
git push -q -u origin feature
expect_run 0 md start "a feature"
expect_answer upstream-alive pass "none is gone"
commit_a_feature
git push -q origin main
[ "$(git --git-dir="$HOME/origin.git" rev-parse main)" = "$(git rev-parse HEAD)" ] || fail "setup: origin lacks the work"
expect_answer pushed pass "."
expect_answer upstream-alive pass "none is gone"
expect_answer integrated pass "reaches HEAD"

# `file://localhost/ABS`: the same directory, its host ignored.
git init -q --bare -b main "$case_root/second.git"
git clone -q "file://localhost$case_root/second.git" "$case_root/second" 2>/dev/null
cd "$case_root/second"
echo base > README
exempt_forge
commit_all "initial"
git push -q -u origin main
git remote set-head origin main
expect_run 0 md start "b feature"
commit_a_feature
git push -q origin main
[ "$(git --git-dir="$case_root/second.git" rev-parse main)" = "$(git rev-parse HEAD)" ] || fail "setup: second lacks the work"
expect_answer pushed pass "."
expect_answer integrated pass "reaches HEAD"

# A ref filled without the remote is read against the remote itself.
git commit -q --allow-empty -m "not pushed"
git update-ref refs/remotes/origin/main HEAD
expect_open pushed "origin/main"
