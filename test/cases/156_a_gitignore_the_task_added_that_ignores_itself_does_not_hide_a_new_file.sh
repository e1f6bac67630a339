# Issue 10 §5, a variant: a .gitignore the task writes (untracked, and
# ignoring itself: `printf "*\n" > src/.gitignore`) hides both itself and
# the new file; git status shows nothing. An ignore file that did not exist
# at the start does not hide files: no-untracked is owed. (Tool caches such
# as .pytest_cache write the same self-ignoring file: see README.md.)
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
expect_run 0 md start "a"
mkdir -p src
echo "pub fn work() {}" > src/work.rs
expect_open no-untracked "src/work.rs" "owed"
printf '*\n' > src/.gitignore
[ -z "$(git status --porcelain)" ] || fail "setup: git still shows something"
expect_open no-untracked "src/work.rs|src/.gitignore" "owed"
expect_run 10 md check
