# Inherited means the same content: a file already dirty at the start and
# left alone is inherited, named and not counted; one dirty at the start
# that the task then changed again is the task's work, in committed, in
# the change set scoped reads, and in no-untracked's sibling rule for
# untracked files (test/cases/158).
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src docs
echo 'fn a() {}' > src/lib.rs
echo '# notes' > docs/notes.md
commit_all "initial"
echo '# notes, edited before the task' > docs/notes.md
echo 'fn a() { 0 }' > src/lib.rs
expect_run 0 md start "a" --scope src
expect_contains "2 dirty"
expect_answer committed "pass" "2 paths already dirty at the start, not counted"
echo '# notes, and the task wrote here too' > docs/notes.md
expect_open committed "docs/notes.md" "owed"
judge_answer committed "owed" "not counted: src/lib.rs"
expect_also scoped "docs/notes.md" "refused"
