# Issue 10 §5: the same through a core.excludesFile the task set since the
# start (git config core.excludesFile ~/.myignore).
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
expect_run 0 md start "a"
mkdir -p src
echo "pub fn work() {}" > src/work.rs
expect_open no-untracked "src/work.rs" "owed"
echo 'work.rs' > "$HOME/.myignore"
git config core.excludesFile "$HOME/.myignore"
git status --porcelain | grep -q work.rs && fail "setup: git does not ignore the file"
expect_open no-untracked "src/work.rs" "owed"
expect_run 10 md check
