# no-untracked's remedy, taken from check --json and run as written, adds
# and commits the files the task created, and only those: a file that was
# already untracked at the start stays untracked.
source "$(dirname "$0")/../lib.sh" || exit 2

echo one > a.txt
commit_all "initial"
echo "scratch from before" > inherited.log
expect_run 0 md start "add the notes"

mkdir -p docs
echo notes > docs/notes.md
echo more > 'odd name.txt'
expect_open no-untracked "docs/notes.md" "owed"
follow_remedy no-untracked
expect_status no-untracked pass
expect_status committed pass
git ls-files --error-unmatch inherited.log > /dev/null 2>&1 && fail "the remedy added the inherited file"
[ -f inherited.log ] || fail "the inherited file is gone"
git ls-files --error-unmatch 'odd name.txt' > /dev/null 2>&1 || fail "the remedy did not add 'odd name.txt'"
true
