# The baseline deleted while a file holding its entries and one more
# appears elsewhere (config/lint-allow.txt): git's rename detection pairs
# them, so the baseline is followed there, named, and the entry refused.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
printf "src/a.rs: unused\nsrc/b.rs: unused\n" > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
expect_answer no-new-debt "pass" "."
mkdir -p config
{ cat .ai/repo/lint-baseline.txt; printf 'src/c.rs: unused\n'; } > config/lint-allow.txt
git rm -q .ai/repo/lint-baseline.txt
commit_all "the allow list lives in config"
expect_open no-new-debt "lint-allow.txt|lint-baseline.txt" "refused"
expect_run 10 md check
