# README, "The closing questions": a baseline gone from its path is
# followed by its entries into the files the change added or grew, but not
# into a document. `git mv .ai/repo/lint-baseline.txt
# config/lint/allow.txt`, unchanged, while the task's docs/lint.md grows a
# paragraph saying where the list now lives and quoting one of its entries
# as an example, read docs/lint.md as a baseline new since the start: its
# prose lines and the quoted entry were refused as entries added, though
# no baseline gained any. A document (`.md`, `.rst`, `.adoc`, `.org`, the
# extensions regression-tested reads as prose) is not followed by its
# entries; one git's rename detection pairs with the gone baseline (a
# baseline renamed to README.md) is followed all the same.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src config/lint docs
exempt_forge
printf 'src/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: panic\n' > .ai/repo/lint-baseline.txt
printf '# Lint\n\nRun the linter before pushing.\n' > docs/lint.md
echo "fn a() {}" > src/lib.rs
commit_all "initial"
start=$(git rev-parse HEAD)
expect_run 0 md start "move the lint list under config/"

# The honest flow: moved unchanged, the docs quoting an entry.
git mv .ai/repo/lint-baseline.txt config/lint/allow.txt
cat >> docs/lint.md <<'MD'

Known findings are allowed in config/lint/allow.txt, one a line, e.g.

src/a.rs: unwrap

Pay one off by fixing it and deleting its line.
MD
commit_all "the lint list moved under config/, documented"
expect_answer no-new-debt pass "No entry was added"
out=$(evidence_of no-new-debt)
expect_not_contains "docs/lint.md"

# Paid off: the baseline deleted, a new changelog naming what was fixed.
git rm -q config/lint/allow.txt
cat > docs/CHANGES.rst <<'RST'
Changes
=======

Every finding the lint list allowed is fixed, and the list is gone. The
one most often asked about was

src/a.rs: unwrap

which now returns the error to its caller.
RST
commit_all "the lint findings fixed"
expect_answer no-new-debt pass "No entry was added"

# A baseline renamed to a document, git pairing them, is still followed:
# an entry appended there is added.
git reset -q --hard "$start"
git mv .ai/repo/lint-baseline.txt README.md
echo 'src/lib.rs: unwrap' >> README.md
commit_all "the lint list is the readme now"
expect_open no-new-debt 'README\.md \(.*added `src/lib\.rs: unwrap`' refused
