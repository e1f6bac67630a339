# README, "Bookkeeping, acknowledgements, the score and the sweep", through the HEAD reflog: the task commits src/lib.rs, then
# `git reset --soft HEAD~1` takes the commit off HEAD (its changes staged,
# the commit still in HEAD's reflog). The reflog shows the task made it: an
# ack of committed does not cover it.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src tests
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"
echo t > tests/a.rs
commit_all "a test"
echo "fn a() { 1 }" > src/lib.rs
commit_all "fix a"
git reset -q --soft HEAD~1
expect_open committed "src/lib.rs" "owed"

md ack committed --why "a peer's edit, not mine" > /dev/null 2>&1 || true
expect_open committed "src/lib.rs" "owed"
expect_run 10 md check
