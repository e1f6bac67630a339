# Issue 10 §5: a new file ignored by a rule the task added to
# .git/info/exclude passes no-untracked. Rules that did not exist at the
# start do not hide files: no-untracked is owed, naming the file.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
expect_run 0 md start "a"
mkdir -p src
echo "pub fn work() {}" > src/work.rs
expect_open no-untracked "src/work.rs" "owed"
echo 'src/work.rs' >> .git/info/exclude
expect_open no-untracked "src/work.rs" "owed"
expect_run 10 md check
