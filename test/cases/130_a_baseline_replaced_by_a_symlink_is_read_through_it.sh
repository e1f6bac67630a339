# A baseline replaced by a symbolic link to a file holding one entry more
# is read through the link (on both sides alike: the start snapshot is taken
# by the same reader), so the added entry is refused, never passed over as
# a baseline "no longer there".
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
printf "src/a.rs: unused\nsrc/b.rs: unused\n" > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
expect_answer no-new-debt "pass" "."
printf 'src/a.rs: unused\nsrc/b.rs: unused\nsrc/c.rs: unused\n' > .ai/repo/lint-list.txt
rm .ai/repo/lint-baseline.txt
ln -s lint-list.txt .ai/repo/lint-baseline.txt
expect_open no-new-debt "lint-baseline.txt" "refused unknown"
expect_run 10 md check
