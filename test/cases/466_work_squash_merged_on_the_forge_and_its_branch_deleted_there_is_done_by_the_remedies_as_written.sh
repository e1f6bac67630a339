#!/usr/bin/env bash
# GitHub's usual flow: the task's branch pushed, squash-merged (or
# rebase-merged) on the forge, the branch deleted there, `git fetch
# --prune`. `integrated` passed (the trunk holds the work's content), but
# `pushed` owed the commits with `git push -u origin fix/a`, which puts the
# merged branch back on the forge, and `nothing-accumulated`'s `git switch
# --detach origin/main && git branch -d fix/a` failed ("not fully
# merged": a squash is no ancestor). On a detached HEAD rebase-merged,
# `pushed` advised a branch and a push.
#
# The rule: a commit whose changes the trunk (a remote-tracking ref that
# counts) holds, with their content and modes, as `integrated` reads a
# squash merge, has its work on the remote: `pushed` does not owe it, on
# HEAD or on a branch left behind; `nothing-accumulated` deletes a branch
# whose work is proven on the trunk with `git branch -D`, any other with
# `-d`, which refuses unlanded work. Followed as printed, the remedies
# reach `done: complete` and put nothing back on the forge. A commit whose
# content the trunk does not hold stays owed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
with_origin
git clone -q "$case_root/origin.git" "$case_root/forge"
forge() {
  (cd "$case_root/forge" &&
    export GIT_AUTHOR_NAME=Forge GIT_COMMITTER_NAME=Forge GIT_AUTHOR_EMAIL=forge@example.com GIT_COMMITTER_EMAIL=forge@example.com &&
    git "$@")
}

# forge_squash BRANCH: the forge squash-merges BRANCH into main, pushes,
# and deletes BRANCH.
forge_squash() {
  forge fetch -q origin
  forge merge -q --ff-only origin/main
  forge merge -q --squash "origin/$1" > /dev/null
  forge commit -q -m "$1 (#1)"
  forge push -q origin main
  forge push -q origin --delete "$1"
}

# follow_until_complete: runs every open question's command remedy as
# printed, one at a time, until check says done: complete.
follow_until_complete() {
  local round id
  for round in 1 2 3 4 5 6 7 8; do
    md check --json > "$case_root/doc.json" && return 0
    id=$(json_get "$case_root/doc.json" "([q['id'] for q in d['questions'] if q['status'] in ('owed', 'refused', 'unknown') and q.get('remedy_kind') == 'command'] + [''])[0]")
    [ -n "$id" ] || { out=$(cat "$case_root/doc.json"); fail "open questions left with no command to follow (round $round)"; }
    case "$(remedy_of "$id")" in *"git push"*" -u "*|*"git push origin fix"*) fail "a remedy pushes a merged branch back: $(remedy_of "$id")" ;; esac
    follow_remedy "$id"
  done
  out=$(cat "$case_root/doc.json")
  fail "not complete after following the remedies"
}

# Squash-merged, the branch deleted on the forge, HEAD still on it.
expect_run 0 md start "a fix" --scope src
git switch -q -c fix/a
mkdir -p src
echo fixed > src/a.rs
echo test > src/a_test.rs
commit_all "fix a"
git push -q -u origin fix/a
forge_squash fix/a
git fetch -q --prune
expect_answer integrated pass "squash or rebase merge"
expect_answer pushed pass "holds all 2 paths HEAD changed"
expect_also nothing-accumulated "fix/a" owed
case "$(remedy_of nothing-accumulated)" in *"git branch -D fix/a"*) ;; *) fail "expected git branch -D for the squash-merged branch: $(remedy_of nothing-accumulated)" ;; esac
follow_until_complete
[ -z "$(git ls-remote origin fix/a)" ] || fail "the merged branch is back on the forge"
expect_run 0 md finish --outcome completed

# Squash-merged, then the trunk pulled and the branch left behind here.
expect_run 0 md start "b fix" --scope src
git switch -q -c fix/b
echo fixed > src/b.rs
echo "test b" > src/b_test.rs
commit_all "fix b"
git push -q -u origin fix/b
forge_squash fix/b
git switch -q --detach origin/main
git fetch -q --prune
git switch -q -C main origin/main
expect_answer pushed pass "the branch fix/b .*trunk origin/main holds all 2 paths"
follow_until_complete
git rev-parse -q --verify refs/heads/fix/b > /dev/null && fail "fix/b is still here"
expect_run 0 md finish --outcome completed

# Rebase-merged from a detached HEAD: nothing to put on a branch.
expect_run 0 md start "c fix" --scope src
git switch -q --detach
echo fixed > src/c.rs
echo "test c" > src/c_test.rs
commit_all "fix c"
git push -q origin HEAD:refs/heads/fix/c
forge fetch -q origin
forge merge -q --ff-only origin/main
echo "a colleague's" > "$case_root/forge/NOTES"
forge add NOTES
forge commit -q -m "a colleague's note"
forge cherry-pick origin/fix/c > /dev/null
forge push -q origin main
forge push -q origin --delete fix/c
git fetch -q --prune
expect_answer pushed pass "squash or rebase merge"
follow_until_complete
expect_run 0 md finish --outcome completed

# Work the trunk does not hold stays owed: a commit after the squash merge,
# and the branch is deleted with -d (which refuses it) while it is there.
git switch -q main
git pull -q --ff-only
expect_run 0 md start "d fix" --scope src
git switch -q -c fix/d
echo fixed > src/d.rs
echo "test d" > src/d_test.rs
commit_all "fix d"
git push -q -u origin fix/d
forge_squash fix/d
git fetch -q --prune
echo more > src/d.rs
commit_all "more of d, after the merge"
expect_open pushed "2 commits on HEAD are not on origin/main" owed
case "$(remedy_of pushed)" in "git push -u origin fix/d") ;; *) fail "expected the push of fix/d: $(remedy_of pushed)" ;; esac
expect_also integrated "src/d.rs" owed
case "$(remedy_of nothing-accumulated)" in *"git branch -d fix/d"*) ;; *) fail "expected git branch -d for unlanded work: $(remedy_of nothing-accumulated)" ;; esac
# And a branch left behind holding work the trunk lacks: owed, by name.
git switch -q main
git pull -q --ff-only
expect_open pushed "the branch fix/d holds 2 commits" owed
