# Issue 10 §6, the mode class in the change set (not listed there): the
# change set compares blob ids only, so a committed chmod +x outside the
# scope is no change at all: scoped passes ("all 0 paths") and
# regression-tested is exempt ("nothing changed"). A mode change is a
# change: scoped is refused, naming the path.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src scripts
echo "echo hi" > scripts/run.sh
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a" --scope src
chmod +x scripts/run.sh
commit_all "run.sh is executable"
expect_open scoped "scripts/run.sh" "refused"
expect_also regression-tested "scripts/run.sh|test path" "owed"
expect_run 10 md check
