#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The task pushes its work to feat (origin across a network, git daemon);
# someone deletes feat on origin unmerged (a pull request closed and its
# branch deleted); a plain `git fetch` leaves origin/feat here. pushed
# passed ("on origin/feat (its upstream)") while no branch of origin held
# the work. The fetch's FETCH_HEAD lists origin's branches without feat:
# the ref is no evidence, and the work is owed until pushed again.

with_daemon_origin
expect_run 0 md start "a feature"
commit_a_feature feat
git push -q -u origin feat
sleep 1
git clone -q "$project" "$case_root/forge"
(cd "$case_root/forge" && git push -q origin --delete feat)
git fetch -q origin
[ -z "$(git ls-remote origin refs/heads/feat)" ] || fail "setup: origin still has feat"
git rev-parse -q --verify refs/remotes/origin/feat > /dev/null || fail "setup: the fetch pruned origin/feat"
expect_open pushed "1 commit on HEAD is not on origin/main \(its upstream origin/feat is not evidence of the remote, so the trunk\).*origin/feat is still here at [0-9a-f]{12}, but the fetch of origin that wrote FETCH_HEAD since it last moved listed origin's branches \(main\) without feat" owed
judge_answer upstream-alive owed "feat \(tracks origin/feat: .*without feat: deleted on origin and not pruned here"
# Pushed again, the ref keeps its value and git writes no line into it:
# the remedy fetches after the push, which lists feat again.
[ "$(remedy_of pushed)" = "git push origin feat && git fetch origin" ] || fail "remedy: $(remedy_of pushed)"
follow_remedy pushed
[ -n "$(git ls-remote origin refs/heads/feat)" ] || fail "the remedy did not push feat"
expect_answer pushed pass "on origin/feat \(its upstream\)"
judge_answer upstream-alive pass "none is gone"
