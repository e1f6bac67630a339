# A gate input that is a symbolic link (src/data.txt ->
# ../fixtures/data.txt) is hashed through to its target inside the
# repository: editing the target after the run makes the verdict stale.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src fixtures tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q good src/data.txt"
inputs = ["src/**"]
TOML
echo good > fixtures/data.txt
ln -s ../fixtures/data.txt src/data.txt
commit_all "initial"
expect_run 0 md start "a"
echo "fn a() {}" > src/lib.rs
echo t > tests/a.rs
commit_all "a"
expect_run 0 md gate run unit
expect_answer gates-green "pass" "unit passed"
echo bad > fixtures/data.txt
expect_open gates-green "unit" "owed"
expect_run 10 md check
