# A start after a task left open continues it (test/cases/335), and took
# the new start's scope: `finish --outcome partial` then `start` without
# `--scope` widened a task scoped to src to everything, and the edit
# outside it passed. A continued task keeps its scope; a path the new start
# names beyond it is added as `majordomus scope add` adds one, recorded and
# shown.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src docs
echo "fn parse() {}" > src/parse.rs
echo "# guide" > docs/guide.md
exempt_forge
commit_all "initial"
expect_run 0 md start "fix the parser" --scope src
echo "# guide, edited" > docs/guide.md
commit_all "the guide"
expect_open scoped "docs/guide.md" "refused"
expect_run 0 md finish --outcome partial

expect_run 0 md start "fix the parser, again"
expect_open scoped "docs/guide.md" "refused"
expect_run 0 md finish --outcome partial

# Named at the start, the wider scope is recorded as grown, with when.
expect_run 0 md start "fix the parser and its guide" --scope docs
json_get .ai/local/state/task.json "d['scope']" | grep -q "docs" || fail "the scope named at the start is not the task's"
json_get .ai/local/state/task.json "[a['path'] for a in d['scope_added']]" | grep -q "docs" || fail "the scope grown at the restart is not recorded as grown"
expect_answer scoped "pass" "docs"
