# README, "Bookkeeping, acknowledgements, the score and the sweep": `majordomus ack committed --why "a peer's edit"` accepts a
# path the task's own commits changed. An acknowledgement never covers what
# this task's commits show it made: the ack is refused (or covers nothing),
# and committed stays owed.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src tests
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"
echo "fn a() { 1 }" > src/lib.rs
echo t > tests/a.rs
commit_all "fix a"
echo "fn a() { 2 }" > src/lib.rs
expect_open committed "src/lib.rs" "owed"

md ack committed --why "a peer's edit, not mine" > /dev/null 2>&1 || true
expect_open committed "src/lib.rs" "owed"
expect_run 10 md check
