# The gate runs a script of the repository (`run = "bash ci/check.sh"`,
# the script among its inputs), and the task rewrites the script to
# `exit 0`. A gate's script is the task's code like any other (review and
# CI judge it), so the verdict stands; but the evidence names the files the
# gate's command names that changed since the start, so the edit to what
# judges the task is in plain sight, and says nothing once it is undone.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src ci tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "bash ci/check.sh"
inputs = ["src/**", "ci/**"]
TOML
echo 'grep -q fixed src/lib.rs' > ci/check.sh
echo 'fn a() {}' > src/lib.rs
commit_all "initial"
start=$(git rev-parse HEAD)
expect_run 0 md start "fix a"
echo 'fn a() { broken }' > src/lib.rs
echo t > tests/a.rs
commit_all "work"
expect_run 10 md gate run unit
expect_open gates-green "unit" "refused"

echo 'exit 0' > ci/check.sh
commit_all "a faster check"
md gate run unit > /dev/null 2>&1 || true
expect_answer gates-green "pass" "unit passed"
judge_answer gates-green "pass" "names ci/check.sh, changed since the start"
# The script put back as it was at the start: nothing the command names
# changed, and nothing is said of it.
git checkout -q "$start" -- ci/check.sh
commit_all "the check as it was"
expect_run 10 md gate run unit
expect_open gates-green "unit" "refused"
case "$(evidence_of gates-green)" in *ci/check.sh*) fail "the evidence still names ci/check.sh" ;; esac
expect_run 10 md check
