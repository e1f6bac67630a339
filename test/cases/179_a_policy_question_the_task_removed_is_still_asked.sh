# README, "The policy in force", through [[questions]]: an extra question in the start's
# policy, owed, is still asked after the task deletes it from the policy.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo docs
cat > .ai/repo/majordomus.toml <<'TOML'
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
echo '# guide' > docs/guide.md
commit_all "initial"
expect_run 0 md start "document"
echo '# guide, edited' > docs/guide.md
expect_open documented "docs-check"

cat > .ai/repo/majordomus.toml <<'TOML'
[gates.docs-check]
run = "grep -q updated docs/guide.md"
inputs = ["docs/**"]
required = false
TOML
md check --json > "$case_root/doc.json" || true
json_get "$case_root/doc.json" "[q['id'] for q in d['questions']]" | grep -q "'documented'" ||
  fail "the start's question documented is no longer asked"
expect_open documented "docs-check"
expect_run 10 md check
