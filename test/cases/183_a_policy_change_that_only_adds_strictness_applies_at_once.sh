# README, "The policy in force": what only adds strictness applies at once. A gate,
# an extra question and a narrower exemption written mid-task are in force
# for this very task.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src docs
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "regression-tested"
reason = "no tests here yet"
TOML
echo 'fn a() {}' > src/lib.rs
echo '# guide' > docs/guide.md
commit_all "initial"
expect_run 0 md start "a"
echo 'fn a() { 1 }' > src/lib.rs
echo '# guide, edited' > docs/guide.md
commit_all "work"
expect_answer regression-tested "exempt" "no tests here yet"

cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "true"
inputs = ["src/**"]

[gates.docs-check]
run = "grep -q updated docs/guide.md"
inputs = ["docs/**"]
required = false

[[questions]]
id = "documented"
stage = "documentation"
question = "Were the documents a reader needs updated?"
gate = "docs-check"
TOML
expect_open gates-green "unit never reported" "owed"
expect_also documented "docs-check" "owed"
expect_also regression-tested "test path" "owed"
expect_run 0 md gate run unit
expect_answer gates-green "pass" "unit passed"
