# A gate passes over its inputs; an input is then edited and marked
# assume-unchanged. The verdict covers other content: gates-green is owed
# (stale), never a pass kept by the index bit.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_unit_gate
echo "fn a() { /* fixed */ }" > src/lib.rs
echo t > tests/a.rs
commit_all "fix a"
expect_run 0 md gate run unit
expect_answer gates-green "pass" "unit passed"

echo "fn a() { /* broken */ }" > src/lib.rs
git update-index --assume-unchanged src/lib.rs
expect_open gates-green "unit" "owed"
expect_run 10 md check
