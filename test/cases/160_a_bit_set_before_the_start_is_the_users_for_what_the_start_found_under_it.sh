# A bit the user set before the task started is the user's configuration:
# what the start found under it is inherited. src/local.rs carries
# --assume-unchanged from before the start, and its edit made then is not
# counted (git status is silent too); content changed since under the bit
# is a change since the start like any other (test/cases/407), named with
# its bit, until acknowledged as the user's own. The same bit set since the
# start on src/lib.rs does not hide its edit, and the evidence says which
# bit.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src tests
echo 'fn a() {}' > src/lib.rs
echo 'const LOCAL: u8 = 1;' > src/local.rs
commit_all "initial"
git update-index --assume-unchanged src/local.rs
echo 'const LOCAL: u8 = 2; // my machine' > src/local.rs
expect_run 0 md start "a"
[ "$(json_get .ai/local/state/task.json 'd["snapshot"]["reading"]["bits"]')" = "{'src/local.rs': 'assume-unchanged'}" ] ||
  fail "the start did not record the bit it found"
echo 'fn a() { 1 }' > src/lib.rs
echo '#[test] fn t() {}' > tests/it.rs
commit_all "the work"
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
expect_answer committed "pass" "."
echo 'const LOCAL: u8 = 3; // still mine' > src/local.rs
expect_open committed "src/local.rs \(changed since the start under its assume-unchanged bit" "owed"
expect_run 0 md ack committed --why "src/local.rs is my machine's setting"
expect_answer committed "exempt" "my machine"
echo 'fn a() { 2 }' > src/lib.rs
git update-index --assume-unchanged src/lib.rs
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
expect_open committed "src/lib.rs \(its assume-unchanged bit was not set at the start\)" "owed"
judge_answer committed "owed" "^[^;]*$"
true
