# A gate passes over src/**; the task then adds src/extra.rs (which breaks
# the gate) and a rule in .git/info/exclude ignoring it. An ignore rule the
# repository does not hold is part of what a verdict covers, so the rule
# added after the run makes the old pass stale: gates-green is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "! grep -rq broken src"
inputs = ["src/**"]
TOML
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
echo "fn a() { 1 }" > src/lib.rs
echo t > tests/a.rs
commit_all "a"
expect_run 0 md gate run unit
expect_answer gates-green "pass" "unit passed"

echo "fn broken() {}" > src/extra.rs
echo "src/extra.rs" >> .git/info/exclude
expect_run 1 bash -c "cd \"$repo\" && ! grep -rq broken src"  # the gate now fails
expect_open gates-green "unit" "owed"
expect_run 10 md check
