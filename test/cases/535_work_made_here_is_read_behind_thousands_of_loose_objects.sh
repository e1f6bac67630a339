#!/usr/bin/env bash
# test/cases/493 and 448 behind a commit of a few thousand small files (a
# generated table, in scope): more than 4096 loose object files written
# since the start. The loose objects that say which commits were made here
# (a removed linked worktree's, one HEAD never pointed at) were looked at
# only up to 4096 files, and past that read as "none made here": scoped
# passed with the worktree's docs change on the trunk, and pushed passed
# with work parked under refs/notes/wip on no remote.
#
# The rule: every loose object file written since the start is read (a
# stat, an open and a header's inflate each); past 200,000 the reading is
# unread, never "none". Scoped is refused naming docs/y.md, pushed owed
# naming the ref; a colleague's change fetched is still theirs.
source "$(dirname "$0")/../lib.sh" || exit 2

start_src_task_beside_docs
mkdir -p src/gen
for i in $(seq 1 4200); do echo "row $i" > "src/gen/f$i.txt"; done
commit_all "the src work, with its generated table"
git push -q origin main

# Honest: a colleague's docs change on the trunk, fetched, is theirs.
colleague "docs" "echo theirs > docs/x.md"
git fetch -q origin
expect_answer scoped "pass" "inside the scope"
expect_answer pushed "pass" "origin/main"

git worktree add -q "$case_root/wt" -b docs origin/main
(cd "$case_root/wt" && echo mine > docs/y.md && git add docs/y.md && git commit -qm "docs too" && git push -q origin docs:main)
git worktree remove "$case_root/wt"
git branch -q -D docs
git fetch -q origin
expect_open scoped "docs/y.md" "refused"
case "$(evidence_of scoped)" in *docs/x.md*) fail "expected scoped not to name docs/x.md" ;; esac

# Work HEAD never pointed at, parked under a ref git's tools write.
echo parked > src/parked.rs
git add src/parked.rs
parked=$(git commit-tree -p HEAD -m "parked" "$(git write-tree)")
git reset -q --hard
git update-ref refs/notes/wip "$parked"
expect_open pushed "notes/wip" "owed"
