# Issue 10 §7: the baseline replaced by a symlink to a file holding one
# entry more: the start side reads through links, the working-tree side
# skips them, so no-new-debt passes ("no longer there"). Both sides are
# read the same way (or the link refused): never pass with more entries.
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

mkdir -p .ai/repo src
printf "src/a.rs: unused\nsrc/b.rs: unused\n" > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
expect_answer no-new-debt "pass" "."
printf 'src/a.rs: unused\nsrc/b.rs: unused\nsrc/c.rs: unused\n' > .ai/repo/lint-list.txt
rm .ai/repo/lint-baseline.txt
ln -s lint-list.txt .ai/repo/lint-baseline.txt
expect_open no-new-debt "lint-baseline.txt" "refused unknown"
expect_run 10 md check
