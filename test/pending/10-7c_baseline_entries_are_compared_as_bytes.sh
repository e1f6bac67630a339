# Issue 10 §7: entries are compared after lossy UTF-8 decoding, so two
# different non-UTF-8 entries compare equal (both U+FFFD). An entry whose
# bytes were not there at the start is new: no-new-debt is refused.
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

mkdir -p .ai/repo src
printf "src/a.rs: \\377\n" > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
printf "src/a.rs: \\377\nsrc/a.rs: \\376\n" > .ai/repo/lint-baseline.txt
expect_open no-new-debt "lint-baseline.txt" "refused"
expect_run 10 md check
