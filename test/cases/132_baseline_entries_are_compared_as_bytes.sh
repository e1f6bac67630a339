# Baseline entries are compared as bytes: two entries that differ only in
# bytes that are not UTF-8 (\377 and \376) are two entries, never one
# decoded lossily. The entry not there at the start is refused.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
printf "src/a.rs: \\377\n" > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
printf "src/a.rs: \\377\nsrc/a.rs: \\376\n" > .ai/repo/lint-baseline.txt
expect_open no-new-debt "lint-baseline.txt" "refused"
expect_run 10 md check
