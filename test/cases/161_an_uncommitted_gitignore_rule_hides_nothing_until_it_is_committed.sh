# Only rules the repository holds (committed, in HEAD) or held at the start
# hide files. The task adds a rule to the tracked .gitignore without
# committing it: the new file it ignores still counts, naming .gitignore.
# Committed, the rule is the repository's: the file is ignored, as git
# says, and the .gitignore change is in the change set for review.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src tests
echo 'fn a() {}' > src/lib.rs
echo '*.log' > .gitignore
commit_all "initial"
echo 'old' > src/old.log
expect_run 0 md start "a"
echo '#[test] fn t() {}' > tests/it.rs
echo 'generated' > src/gen.rs
echo 'src/gen.rs' >> .gitignore
git status --porcelain | grep -q gen.rs && fail "setup: git does not ignore the file"
expect_open no-untracked "src/gen.rs \(ignored by a rule in \.gitignore that did not hold at the start\)" "owed"
judge_answer no-untracked "owed" "^[^;]*$"
evidence_of no-untracked | grep -q old.log && fail "a file a committed rule hides is counted"
git add .gitignore tests
git commit -q -m "ignore the generated file"
expect_answer no-untracked "pass" "."
