# README, "The closing questions": a baseline gone from its path since the
# start is followed into every file the change added or grew that holds any
# of its entries, not only the one git's rename detection pairs it with.
# `git rm` of a three-entry baseline spread over config/lint/{a,b,c}-allow.txt,
# a-allow.txt also holding a new entry, read as "3 entries at the start, 1
# in 1 baseline now": git paired the baseline with b-allow.txt alone, and
# a-allow.txt, under half of the baseline, was never read. Kept unchanged
# as a backup (`git mv` to allow.txt.orig, which git pairs) while a new
# allowlist holds all of it and an entry more, it read the same. And in
# the pattern: moved to .ai/repo/old/ while a new baseline copies it and
# adds an entry, the new one read as "recording debt already there". Each
# file holding entries of a baseline gone from its path is a new baseline
# fed by the copies taken out of the start's: each copy allowed once over
# all of them, and whatever else it holds is added.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src config/lint
exempt_forge
printf 'src/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: panic\n' > .ai/repo/lint-baseline.txt
printf 'name = "x"\n' > config/app.toml
echo "fn a() {}" > src/lib.rs
commit_all "initial"
start=$(git rev-parse HEAD)
expect_run 0 md start "split the lint list by crate"

# Split over three files, the new entry beside a third of it.
git rm -q .ai/repo/lint-baseline.txt
printf 'src/a.rs: unwrap\nsrc/lib.rs: unwrap\n' > config/lint/a-allow.txt
printf 'src/b.rs: expect\n' > config/lint/b-allow.txt
printf 'src/c.rs: panic\n' > config/lint/c-allow.txt
commit_all "the lint list split"
expect_open no-new-debt 'config/lint/a-allow\.txt \(new since the start, out of the naming pattern and followed.*added `src/lib\.rs: unwrap`' refused

# Split without the new entry: every copy is where it was taken from, once.
printf 'src/a.rs: unwrap\n' > config/lint/a-allow.txt
commit_all "the lint list split, nothing added"
expect_answer no-new-debt pass "No entry was added"
expect_also no-new-debt "config/lint/a-allow\.txt" pass

# A copy held twice over the split is a copy added.
echo 'src/c.rs: panic' >> config/lint/a-allow.txt
expect_open no-new-debt 'added `src/c\.rs: panic` \(1 copy then' refused
git checkout -q HEAD -- config/lint/a-allow.txt

# Paid off: the baseline deleted and no file holding any of it, while an
# unrelated file is edited.
git rm -q -r config/lint
echo 'debug = true' >> config/app.toml
commit_all "paid off"
expect_answer no-new-debt pass "No entry was added"

# Kept as a backup, unchanged, while a new allowlist holds it and more.
git reset -q --hard "$start"
mkdir -p config/lint
cp .ai/repo/lint-baseline.txt config/lint/allow.txt
echo 'src/lib.rs: unwrap' >> config/lint/allow.txt
git mv .ai/repo/lint-baseline.txt config/lint/allow.txt.orig
commit_all "the lint list moved, its backup kept"
expect_open no-new-debt 'config/lint/allow\.txt \(.*added `src/lib\.rs: unwrap`' refused

# The backup dropped: the allowlist is the baseline, moved, one entry more.
git rm -q config/lint/allow.txt.orig
commit_all "the backup dropped"
expect_open no-new-debt 'added `src/lib\.rs: unwrap`' refused
# And without the entry, a move out of the pattern that adds nothing.
printf 'src/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: panic\n' > config/lint/allow.txt
commit_all "the entry taken out"
expect_answer no-new-debt pass "No entry was added"

# In the pattern: moved to .ai/repo/old/ while a new baseline copies it and
# adds an entry.
git reset -q --hard "$start"
mkdir -p .ai/repo/old
cp .ai/repo/lint-baseline.txt .ai/repo/clippy-baseline.txt
echo 'src/lib.rs: unwrap' >> .ai/repo/clippy-baseline.txt
git mv .ai/repo/lint-baseline.txt .ai/repo/old/lint-baseline.txt
commit_all "the lint list archived, clippy's from it"
expect_open no-new-debt '\.ai/repo/clippy-baseline\.txt \(.*added `src/lib\.rs: unwrap`' refused
