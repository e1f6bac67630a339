# README, "A task, start to finish": a path out of scope is fixed by growing the scope in place,
# not by a restart that launders the task's edits: `majordomus scope add
# PATH...` records the path in the task record, check shows the scope,
# and scoped's remedy names the command.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src docs
echo "fn parse() {}" > src/parse.rs
echo "# guide" > docs/guide.md
commit_all "initial"
expect_run 0 md start "fix the parser" --scope src
echo "fn parse() { 1 }" > src/parse.rs
echo "# guide, with the parser" > docs/guide.md
expect_run 10 md check
expect_contains "scoped=refused"
expect_contains "scope add"

expect_run 0 md scope add docs
json_get .ai/local/state/task.json "d[\"scope\"]" | grep -q docs || fail "the task record does not hold the added scope"
expect_answer scoped "pass" "docs"
# Adding is the only way: what was added is kept, and a glob is refused as at start.
expect_run 2 md scope add "docs/*.md"
