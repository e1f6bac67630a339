#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# origin is a bare repository on this machine in git's reftable ref format
# (`git init --bare --ref-format=reftable`, or `git refs migrate
# --ref-format=reftable` there), which libgit2 cannot open. The task
# pushes its work to a branch wip there and deletes the remote-tracking
# ref (`git branch -dr origin/wip`): origin keeps the branch, yet
# nothing-accumulated passed (origin's branches, read to find it, were read
# as none), and upstream-alive said main's upstream was gone (remedy:
# unset it). A remote on this machine that is a repository majordomus
# cannot read (reftable, an extension or format version libgit2 does not
# know) is now unknown, named with its format, for both; once it is read
# again the branch left there is owed as before.

echo base > README
exempt_forge
commit_all "initial"
git init -q --bare --ref-format=reftable "$case_root/origin.git"
git remote add origin "$case_root/origin.git"
git push -q -u origin main
git remote set-head origin main
expect_run 0 md start "a feature"
mkdir -p src tests && echo "fn f() {}" > src/f.rs && echo "f" > tests/f_test.sh
commit_all "the feature"
git push -q origin main
echo "more" > src/g.rs
commit_all "more, kept aside"
git push -q origin HEAD:wip
git branch -q -dr origin/wip
git reset -q --hard HEAD~1
# The fact: origin keeps the branch wip the task made there.
[ -n "$(git -C "$case_root/origin.git" branch --list wip)" ] || fail "setup: origin has no wip"
expect_answer nothing-accumulated unknown "which branches a push from here made on the remote is unknown: origin's URL names .* reftable format"
judge_answer upstream-alive unknown "tracks an upstream on a remote majordomus cannot read.*main \(tracks origin/main"
judge_answer pushed unknown "reftable format"
expect_not_contains "git branch --unset-upstream main"
# An extension libgit2 does not know is the same: unknown, named.
git -C "$case_root/origin.git" refs migrate --ref-format=files
git config -f "$case_root/origin.git/config" core.repositoryformatversion 1
git config -f "$case_root/origin.git/config" extensions.futureThing true
expect_answer nothing-accumulated unknown "extensions extensions.futurething"
judge_answer upstream-alive unknown "cannot read"
# The honest way: a remote majordomus reads says what it holds.
git config -f "$case_root/origin.git/config" --unset extensions.futureThing
expect_answer nothing-accumulated owed "origin's branch wip"
judge_answer upstream-alive pass "none is gone"
judge_answer pushed pass "on origin/main \(its upstream\)"
git push -q origin --delete wip
expect_answer nothing-accumulated pass "No branch or linked worktree created since the start is still there"
