# README, "The closing questions": a baseline that left the naming pattern
# is followed where it went, and entries added there refuse. Git's rename
# detection pairs a moved file only while half of it is still what it was:
# `git mv .ai/repo/lint-baseline.txt config/lint-allow.txt` with more
# entries appended than it held lost the pairing, the baseline read as
# deleted and its entries as paid off, and no-new-debt passed. A file new
# since the start that holds at least half of a gone baseline's entries is
# that baseline, followed by its shared entries.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
printf 'src/a.rs: unwrap\nsrc/b.rs: expect\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "tidy the lint list"

mkdir -p config
git mv .ai/repo/lint-baseline.txt config/lint-allow.txt
printf 'src/c.rs: unwrap\nsrc/d.rs: unwrap\nsrc/e.rs: unwrap\nsrc/f.rs: unwrap\nsrc/g.rs: unwrap\n' >> config/lint-allow.txt
expect_open no-new-debt "src/c.rs: unwrap" "refused"
expect_also no-new-debt "config/lint-allow.txt"
commit_all "the lint list moved"
expect_open no-new-debt "src/d.rs: unwrap" "refused"

# Moved back with the debt paid off, it answers again.
git mv config/lint-allow.txt .ai/repo/lint-baseline.txt
printf 'src/a.rs: unwrap\nsrc/b.rs: expect\n' > .ai/repo/lint-baseline.txt
expect_answer no-new-debt "pass" "No entry was added"
