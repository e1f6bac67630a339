# README, "The policy in force", through [markers]: a limitation marker the task added that
# names no live issue is refused; narrowing the register (scan, exclude,
# extensions) so the file is no longer scanned does not settle it.
source "$(dirname "$0")/../lib.sh" || exit 2

L="LIMIT""ATION"
mkdir -p src tests
echo 'pub fn a() {}' > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
echo "// $L(#7): not handled yet" >> src/lib.rs
echo 't' > tests/a.rs
commit_all "a"
expect_open markers-live "src/lib.rs"

for register in 'scan = ["docs"]' 'exclude = ["src"]' 'extensions = ["md"]'; do
  mkdir -p .ai/repo
  printf '[markers]\n%s\n' "$register" > .ai/repo/majordomus.toml
  expect_open markers-live "src/lib.rs|markers|register|policy"
  expect_run 10 md check
done
