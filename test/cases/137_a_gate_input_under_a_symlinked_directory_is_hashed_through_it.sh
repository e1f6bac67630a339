# An input under a symbolically linked directory (src/vendor ->
# ../fixtures) is hashed under the link's path: editing a file there after
# the run makes the verdict stale.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src fixtures tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q good src/data.txt"
inputs = ["src/**"]
TOML
sed -i 's|src/data.txt|src/vendor/data.txt|' .ai/repo/majordomus.toml
echo good > fixtures/data.txt
ln -s ../fixtures src/vendor
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
