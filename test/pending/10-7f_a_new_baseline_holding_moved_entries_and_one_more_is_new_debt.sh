# Issue 10 §7, a variant: the old baseline keeps one entry, and a baseline
# new since the start (named, not counted) receives the others plus a new
# one. "One taken out does not pay for it, in that baseline or another":
# the entry that was in no baseline at the start is refused.
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

mkdir -p .ai/repo src
printf "src/a.rs: unused\nsrc/b.rs: unused\nsrc/d.rs: unused\n" > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
printf "src/a.rs: unused\n" > .ai/repo/lint-baseline.txt
printf "src/b.rs: unused\nsrc/d.rs: unused\nsrc/c.rs: unused\n" > .ai/repo/lint-more-baseline.txt
expect_open no-new-debt "src/c.rs|lint-more-baseline.txt" "refused"
expect_run 10 md check
