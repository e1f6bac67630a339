#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The task pushes feat; the forge merges it and deletes the branch, as
# forges do on merge (origin across a network, git daemon); a plain `git
# fetch` (git does not prune by default) leaves origin/feat here.
# upstream-alive passed ("none is gone"): the ref was its only word. The
# fetch's FETCH_HEAD lists origin's branches without feat, written after
# the ref last moved: the upstream is gone. An upstream a fetch found gone
# before the start is named, not counted; one a fetch lists again is alive.

with_daemon_origin
# A branch whose upstream went before the start, its ref not pruned.
git push -q origin main:old
git branch -q old origin/old
git branch -q --set-upstream-to origin/old old
git clone -q "$project" "$case_root/forge"
(cd "$case_root/forge" && git push -q origin --delete old && git commit -q --allow-empty -m next && git push -q origin HEAD:main)
sleep 1
git pull -q --ff-only
git rev-parse -q --verify refs/remotes/origin/old > /dev/null || fail "setup: the fetch pruned origin/old"
expect_run 0 md start "a feature"

commit_a_feature feat
git push -q -u origin feat
sleep 1
(cd "$case_root/forge" && git fetch -q && git push -q origin origin/feat:main && git push -q origin --delete feat)
git fetch -q origin
[ -z "$(git ls-remote origin refs/heads/feat)" ] || fail "setup: origin still has feat"
git rev-parse -q --verify refs/remotes/origin/feat > /dev/null || fail "setup: the fetch pruned origin/feat"
expect_open upstream-alive "^1 local branch tracks an upstream that is gone: feat \(tracks origin/feat: .*listed origin's branches \(main\) without feat: deleted on origin and not pruned here.*already gone at the start, not counted: old \(tracks origin/old" owed
[ "$(remedy_of upstream-alive)" = "git branch --unset-upstream feat" ] || fail "remedy: $(remedy_of upstream-alive)"

# Pushed again (git writes no reflog line where the ref keeps its value)
# and fetched: origin lists feat, alive.
git push -q origin feat
git fetch -q origin
expect_answer upstream-alive pass "none (is gone|went since the start).* Each is read from its remote-tracking ref here and the newest FETCH_HEAD of its remote"
# Deleted again, and a `git pull` on main, origin's only branch (every
# line of FETCH_HEAD marked for a merge): its reflog line names no
# refspec, so the configured ones were fetched.
(cd "$case_root/forge" && git push -q origin --delete feat && git fetch -q && git reset -q --hard origin/main && git commit -q --allow-empty -m more && git push -q origin HEAD:main)
git switch -q main
sleep 1
git pull -q --ff-only
git switch -q feat
expect_open upstream-alive "feat \(tracks origin/feat: .*without feat" owed
# A fetch given main alone says nothing of feat: read from the pull before.
sleep 2
git fetch -q origin main
expect_answer upstream-alive pass "none (is gone|went since the start).* Each is read from its remote-tracking ref here and the newest FETCH_HEAD of its remote"
git fetch -q origin
expect_open upstream-alive "without feat" owed
follow_remedy upstream-alive
expect_answer upstream-alive pass "none (is gone|went since the start).* Each is read from its remote-tracking ref here and the newest FETCH_HEAD of its remote"

# On this machine, the task continuing a branch pushed before the start
# (its ref at its start value, which 390's reading of the remote itself
# leaves to its word): merged and deleted there, then fetched.
git init -q --bare -b main "$case_root/here.git"
git init -q -b main "$case_root/here"
cd "$case_root/here"
echo base > README
exempt_forge
commit_all "initial"
git remote add origin "$case_root/here.git"
git push -q -u origin main
git remote set-head origin main
commit_a_feature feat
git push -q -u origin feat
sleep 1
expect_run 0 md start "continue feat"
git -C "$case_root/here.git" update-ref refs/heads/main refs/heads/feat
git -C "$case_root/here.git" branch -q -D feat
git fetch -q origin
expect_open upstream-alive "feat \(tracks origin/feat: .*without feat: deleted on origin and not pruned here" owed
follow_remedy upstream-alive
expect_answer upstream-alive pass "none is gone"
