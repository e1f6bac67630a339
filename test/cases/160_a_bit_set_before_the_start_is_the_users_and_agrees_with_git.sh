# A bit the user set before the task started is the user's configuration:
# git's answer stands. src/local.rs carries --assume-unchanged from before
# the start, and its edit is not counted (git status is silent too); the
# same bit set since the start on src/lib.rs does not hide its edit, and
# the evidence says which bit.
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
echo 'const LOCAL: u8 = 3; // still mine' > src/local.rs
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
expect_answer committed "pass" "."
echo 'fn a() { 2 }' > src/lib.rs
git update-index --assume-unchanged src/lib.rs
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
expect_open committed "src/lib.rs \(its assume-unchanged bit was not set at the start\)" "owed"
judge_answer committed "owed" "^[^;]*$"
evidence_of committed | grep -q local.rs && fail "a bit set before the start did not hide its file"
true
