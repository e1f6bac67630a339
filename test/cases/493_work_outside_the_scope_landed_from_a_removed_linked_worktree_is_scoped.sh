#!/usr/bin/env bash
# test/cases/349 with the docs work done in a linked worktree made for it
# (`git worktree add ../wt -b docs`), pushed straight onto origin's main,
# the worktree removed and the branch deleted. HEAD, behind the trunk,
# holds none of it, and only HEAD's reflog named the commits made around
# HEAD: the linked worktree's went with it, and scoped passed.
#
# The rule: where HEAD does not reach the trunk's tip, the commits this
# repository wrote since the start under its own address (the loose
# objects, as pushed and arrival read them: test/cases/435, 443) are read
# beside HEAD's reflog, whichever worktree made them: scoped is refused
# naming the path. A colleague's change outside the scope on the trunk,
# fetched and not merged, is under the colleague's address: scoped passes.
source "$(dirname "$0")/../lib.sh" || exit 2

start_src_task_beside_docs
push_a_feature

# Honest: a colleague's docs change on the trunk, fetched.
colleague "docs" "echo theirs > docs/x.md"
git fetch -q origin
expect_answer scoped "pass" "inside the scope"

git worktree add -q "$case_root/wt" -b docs origin/main
(cd "$case_root/wt" && echo mine > docs/y.md && git add docs/y.md && git commit -qm "docs too" && git push -q origin docs:main)
git worktree remove "$case_root/wt"
git branch -q -D docs
git fetch -q origin
expect_open scoped "docs/y.md" "refused"
case "$(evidence_of scoped)" in *docs/x.md*) fail "expected scoped not to name docs/x.md" ;; esac
