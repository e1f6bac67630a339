# A directory of baselines (.ai/repo/debt/) replaced by a symbolic link to
# a directory whose baseline holds one entry more is read as if it were
# there: the entry is refused, and the baseline does not read as gone.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo/debt src
printf "src/a.rs: unused\n" > .ai/repo/debt/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
mkdir -p elsewhere
printf "src/a.rs: unused\nsrc/c.rs: unused\n" > elsewhere/lint-baseline.txt
rm -r .ai/repo/debt
ln -s ../../elsewhere .ai/repo/debt
expect_open no-new-debt "lint-baseline.txt" "refused unknown"
expect_run 10 md check
