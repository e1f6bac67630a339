# README, "A task, start to finish": after `finish --outcome partial` (or blocked,
# or failed) with questions open, a new `start` would make the task's own
# uncommitted edits inherited, and committed pass with them still
# uncommitted. The new start continues the task left open instead
# (test/cases/335) and names, in its answers, what that task left open
# (the archive holds it), so a restart is visible.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src docs
echo "fn parse() {}" > src/parse.rs
echo "# guide" > docs/guide.md
commit_all "initial"
expect_run 0 md start "fix the parser" --scope src
for outcome in partial blocked failed; do
  echo "# guide, $outcome" > docs/guide.md
  expect_run 10 md check
  expect_contains "committed=owed"
  expect_run 0 md finish --outcome "$outcome"
  expect_run 0 md start "another go"
  case "$out" in *"$outcome"*|*previous*|*"left open"*) ;; *) fail "start after $outcome does not name what the previous task left open" ;; esac
  expect_answer committed "pass owed" "previous|left open|$outcome|archive"
done
