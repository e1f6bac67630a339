# Issue 10 §7: a gate input that is a symlink (src/data.txt ->
# ../fixtures/data.txt): only the link text is hashed, so editing the
# target after the run keeps a stale pass. The target's content is hashed
# when it lies inside the repository: gates-green is owed (stale).
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

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
