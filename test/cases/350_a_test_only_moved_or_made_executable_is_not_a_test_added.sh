# regression-tested asks that the change add or edit a test. A test path
# that only moved (`git mv tests/old.rs tests/renamed.rs`) or whose mode
# alone changed (`chmod +x tests/old.rs`) is in the change set, and
# counted as a test added or edited: the task read done with no test
# written. A test path holding what a test path held at the start (its
# own content, or that of a test the change deleted) is named and not
# counted; an edit of it counts.
source "$(dirname "$0")/../lib.sh"

mkdir -p src tests
echo a > src/a.rs
echo t1 > tests/old.rs
start_on_origin
expect_run 0 md todo add "fix a"
expect_run 0 md todo done 1
echo b >> src/a.rs
git mv tests/old.rs tests/renamed.rs
commit_all "fix a, the test renamed"
git push -q origin main
expect_open regression-tested "tests/renamed.rs" "owed"
expect_run 10 md check

# Moved back, made executable: still no test written.
git mv tests/renamed.rs tests/old.rs
chmod +x tests/old.rs
commit_all "the test back, executable"
git push -q origin main
expect_open regression-tested "tests/old.rs" "owed"

# The test edited: counted.
echo t2 >> tests/old.rs
commit_all "a test for the fix"
git push -q origin main
expect_answer regression-tested "pass" "tests/old.rs"
expect_run 0 md check
