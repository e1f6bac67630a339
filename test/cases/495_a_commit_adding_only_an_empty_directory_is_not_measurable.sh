#!/usr/bin/env bash
# A commit whose tree differs from the start's only by an empty subtree
# (`git mktree` with an empty tree entry, then `git commit-tree`), which
# git never checks out and no diff shows, changes no path; its tree id
# differs, so measurable passed. A change is a path, as `git diff
# --name-only START HEAD` lists one (the class of 127's --allow-empty):
# owed; a real file added after it passes.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src; echo 'fn parse() {}' > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix the parser"
empty=$(git mktree </dev/null)
tree=$( (printf '040000 tree %s\tdocs\n' "$empty"; git ls-tree HEAD) | git mktree)
git merge -q --ff-only "$(git commit-tree "$tree" -p HEAD -m "fix the parser")"
# An empty directory nested in one that holds files changes nothing either.
tree=$( (printf '040000 tree %s\tempty\n' "$empty"; git ls-tree HEAD:src) | git mktree)
tree=$( (git ls-tree HEAD | grep -v "	src$"; printf '040000 tree %s\tsrc\n' "$tree") | git mktree)
git merge -q --ff-only "$(git commit-tree "$tree" -p HEAD -m "more of the fix")"
git push -q origin main
[ -z "$(git diff --name-only HEAD~2 HEAD)" ] || fail "the commits change a path"
expect_open measurable "changes no path|nothing" "owed"
expect_run 10 md check

echo 'fn parse() { todo!() }' > src/lib.rs
commit_all "the fix"
git push -q origin main
expect_answer measurable "pass" "."
