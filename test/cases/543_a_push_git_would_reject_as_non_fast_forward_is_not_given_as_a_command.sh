#!/usr/bin/env bash
# pushed's remedy was the command `git push origin main` where origin/main
# was not an ancestor of HEAD: a colleague pushed while the task committed,
# or the task amended a commit it had pushed. git rejects it as
# non-fast-forward, so the command, run as written, settled nothing. Where
# the upstream is not an ancestor of HEAD the remedy integrates first: on
# the trunk, or where the upstream holds anyone else's commit, advice (git
# pull --rebase; never a force push of the trunk); on a task branch whose
# upstream holds only the task's own earlier commits (an amend of its own
# pushed work), the command `git push --force-with-lease`, which runs.
source "$(dirname "$0")/../lib.sh" || exit 2

echo a > lib.js
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "fix"

# A colleague pushed to main; the task's commit is on top of the old main.
colleague "notes" "echo note > NOTES"
echo b > lib.js
commit_all "fix"
git fetch -q
expect_open pushed "." "owed"
expect_advice pushed
expect_contains_remedy() { case "$(remedy_of pushed)" in *"$1"*) ;; *) out=$(remedy_of pushed); fail "expected pushed's remedy to say '$1'" ;; esac; }
expect_contains_remedy "git pull --rebase"
# Integrated as the advice says, the push runs.
git pull -q --rebase
expect_open pushed "." "owed"
follow_remedy pushed
expect_answer pushed "pass" "."

# A task branch pushed, then its commit amended: the lease push runs.
git switch -q -c fix-2
echo c > lib.js
commit_all "fix 2"
git push -q -u origin fix-2
echo d > lib.js
git commit -q -a --amend --no-edit
expect_open pushed "." "owed"
case "$(remedy_of pushed)" in *--force-with-lease*) ;; *) out=$(remedy_of pushed); fail "expected a lease push" ;; esac
follow_remedy pushed
expect_answer pushed "pass" "."

# The same amend on the trunk: never a force push.
git switch -q main
echo e > lib.js
commit_all "fix 3"
git push -q origin main
echo f > lib.js
git commit -q -a --amend --no-edit
expect_open pushed "." "owed"
expect_advice pushed
case "$(remedy_of pushed)" in *--force*) out=$(remedy_of pushed); fail "a force push of the trunk" ;; esac
