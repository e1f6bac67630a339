# The old baseline keeps one entry, and a baseline new since the start
# receives the others plus one more. A new baseline holding entries taken
# out of another is no new tool's findings: it is compared with every
# baseline at the start, and the entry that was in none is refused.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
printf "src/a.rs: unused\nsrc/b.rs: unused\nsrc/d.rs: unused\n" > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
printf "src/a.rs: unused\n" > .ai/repo/lint-baseline.txt
printf "src/b.rs: unused\nsrc/d.rs: unused\nsrc/c.rs: unused\n" > .ai/repo/lint-more-baseline.txt
expect_open no-new-debt "src/c.rs|lint-more-baseline.txt" "refused"
expect_run 10 md check
