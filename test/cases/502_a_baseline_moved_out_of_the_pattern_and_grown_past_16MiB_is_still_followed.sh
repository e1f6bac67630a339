# README, "The closing questions": a baseline moved out of the naming
# pattern and grown past git's similarity is followed as the file new since
# the start that holds at least half of its entries (test/cases/336). The
# follow skipped any file over 16 MiB, which the README never said: comment
# lines, which are no entries, grew the moved file past it, the baseline
# read as gone and its entries, with one added, as paid off. A file over
# 16 MiB is read a piece at a time, keeping only its entries (up to 16 MiB
# of them, the file up to 256 MiB); past that, the answer is unknown, naming
# it, never a pass.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src config data
printf 'src/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: panic\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"

echo "fn a() { fixed; x.unwrap() }" > src/lib.rs
git mv .ai/repo/lint-baseline.txt config/lint-allow.txt
echo 'src/lib.rs: unwrap' >> config/lint-allow.txt
# 17 MiB of comment lines, no entries
python3 -c "import sys; sys.stdout.write(('#' * 1023 + '\n') * (17 * 1024))" >> config/lint-allow.txt
commit_all "fix a"
expect_open no-new-debt 'src/lib.rs: unwrap' refused
expect_also no-new-debt 'config/lint-allow.txt \(moved from \.ai/repo/lint-baseline\.txt' refused

# Paid off, while a large file that holds none of its entries is added:
# read, and nothing followed there.
git rm -q config/lint-allow.txt
echo "fn a() { fixed }" > src/lib.rs
python3 -c "import sys; sys.stdout.write(('row,1,2,3\n') * (2 * 1024 * 1024))" > data/rows.csv
commit_all "paid off, with data"
expect_answer no-new-debt pass "No entry was added"
