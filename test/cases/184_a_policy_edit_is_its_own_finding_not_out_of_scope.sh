# README, "The policy in force": "Policy edits are not out-of-scope noise: scoped judges the
# task's code, and the policy change is reported as its own finding." A
# task scoped to src/ that adds a gate to the policy: scoped passes, and the
# document names the policy change.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src
printf '# no gates yet\n' > .ai/repo/majordomus.toml
echo 'fn a() {}' > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a" --scope src
echo 'fn a() { 1 }' > src/lib.rs
printf '[gates.unit]\nrun = "true"\ninputs = ["src/**"]\n' >> .ai/repo/majordomus.toml
commit_all "fix a, and gate it"
expect_answer scoped "pass" "src"
grep -q 'majordomus.toml' "$case_root/doc.json" || fail "the document does not name the policy change"
