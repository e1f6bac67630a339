# Refs under the namespaces git's own tools write (refs/notes, refs/bisect,
# refs/rewritten, refs/replace, refs/prefetch) were not read at all, so a
# commit parked there (`git update-ref refs/notes/wip HEAD; git reset
# --hard HEAD~1`, or refs/bisect/keep outside any bisect) read done.
# There a ref counts for the commits HEAD's reflog shows this worktree
# making: owed naming it, packed or not; a note itself (`git notes add`)
# is no work.
source "$(dirname "$0")/../lib.sh" || exit 2

start_on_origin
expect_run 0 md todo add "feature"
expect_run 0 md todo done 1
git notes add -m "reviewed" HEAD
expect_answer pushed "pass" "."

for ref in refs/notes/wip refs/bisect/keep; do
  echo "$ref" > parked.rs
  git add parked.rs
  git commit -qm "parked under $ref"
  git update-ref "$ref" HEAD
  git reset -q --hard HEAD~1
  expect_open pushed "$ref" "owed"
  git pack-refs --all
  expect_open pushed "$ref" "owed"
  expect_run 10 md check
  git update-ref -d "$ref"
  expect_answer pushed "pass" "."
done
expect_run 0 md check
