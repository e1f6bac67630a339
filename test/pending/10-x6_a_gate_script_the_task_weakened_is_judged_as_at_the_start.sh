# Not in issue 10 (a new class, §1's rule reaching past the policy file;
# judgement, see README.md): the gate runs a script of the repository
# (`run = "bash ci/check.sh"`, the script among its inputs). The task
# rewrites the script to `exit 0`: the policy's text is unchanged, the
# verdict covers the new script, and gates-green passes. What judges the
# task is not the task's to change: a file the gate's command names that
# changed since the start is named, and the verdict over it is not green.
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

mkdir -p .ai/repo src ci tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "bash ci/check.sh"
inputs = ["src/**", "ci/**"]
TOML
echo 'grep -q fixed src/lib.rs' > ci/check.sh
echo 'fn a() {}' > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"
echo 'fn a() { broken }' > src/lib.rs
echo t > tests/a.rs
commit_all "work"
expect_run 10 md gate run unit
expect_open gates-green "unit" "refused"

echo 'exit 0' > ci/check.sh
commit_all "a faster check"
md gate run unit > /dev/null 2>&1 || true
expect_open gates-green "ci/check.sh"
expect_run 10 md check
