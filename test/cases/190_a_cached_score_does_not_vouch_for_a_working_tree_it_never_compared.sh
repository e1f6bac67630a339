# README, "Bookkeeping, acknowledgements, the score and the sweep": `score --cached` exited 0 with "10/10" and
# nothing said after an edit to a tracked file, because only HEAD, the
# index and the refs are compared. Decided: exit 0 is a measured 10 only, so
# `score --cached` never exits 0, and says the working tree was not compared.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo base > README
commit_all "initial"
expect_run 0 md start "a"
mkdir -p tests && echo "fn a() {}" > tests/a.rs
commit_all "a"
expect_run 0 md score
expect_run 10 md score --cached
expect_contains "10/10 (cached"
expect_contains "working tree"
echo "an edit after the score" >> README
expect_run 10 md score --cached
expect_contains "working tree"
expect_run 10 md score --cached --json
