# README, "The closing questions": a baseline that left the naming pattern
# is followed where its entries went, and a file the start already held is
# no exception. `cat .ai/repo/lint-baseline.txt >> config/lint-allow.txt`
# (the project's other allowlist, there at the start), one entry more, and
# `git rm` of the baseline read as "3 entries at the start, 0 now": git's
# rename detection pairs a deletion only with an added file, and the
# entries were followed only into files new since the start, so the
# baseline read as paid off and no-new-debt passed. A file the start held
# is followed by what it gained since (its entries past those the start
# commit held there), by the same half-of-its-entries threshold, and what
# it gained is the baseline's; the lines it held at the start stay its own.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src config
printf 'src/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: panic\n' > .ai/repo/lint-baseline.txt
printf '# allowed lints, read by ci/lint.sh\nvendor/x.rs: unwrap\n' > config/lint-allow.txt
printf 'name = "x"\n' > config/app.toml
echo "fn a() {}" > src/lib.rs
commit_all "initial"
start=$(git rev-parse HEAD)
expect_run 0 md start "fix a"

echo "fn a() { fixed; x.unwrap() }" > src/lib.rs
cat .ai/repo/lint-baseline.txt >> config/lint-allow.txt
echo 'src/lib.rs: unwrap' >> config/lint-allow.txt
git rm -q .ai/repo/lint-baseline.txt
expect_open no-new-debt 'src/lib.rs: unwrap' refused
expect_also no-new-debt 'config/lint-allow.txt \(moved from \.ai/repo/lint-baseline\.txt' refused
commit_all "fix a"
expect_open no-new-debt 'src/lib.rs: unwrap' refused

# Folded in without the new entry: followed, and nothing added (the line
# the allowlist held at the start is not counted as the baseline's).
grep -v 'src/lib.rs' config/lint-allow.txt > "$case_root/allow" && cp "$case_root/allow" config/lint-allow.txt
expect_answer no-new-debt pass "No entry was added"
expect_also no-new-debt "config/lint-allow.txt" pass

# Paid off (the baseline deleted, the allowlist as the start held it) while
# an unrelated config file is edited: nothing to follow.
git checkout -q "$start" -- config/lint-allow.txt
echo 'debug = true' >> config/app.toml
commit_all "paid off"
expect_answer no-new-debt pass "No entry was added"
