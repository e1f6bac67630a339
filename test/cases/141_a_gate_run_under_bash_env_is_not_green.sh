# A gate running a bash script (`run = "bash check.sh"`) under
# BASH_ENV=exit0.sh: bash sources the file before the script, and it exits
# 0. The environment that chose what ran (PATH, BASH_ENV, ENV, SHELL)
# differs from the start's: the verdict is named and not green.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "bash check.sh"
inputs = ["src/**", "check.sh"]
TOML
echo "grep -q fixed src/lib.rs" > check.sh
echo "fn a() {}" > src/lib.rs
commit_all "initial"
start_and_break_fix_a
echo "exit 0" > "$case_root/exit0.sh"
BASH_ENV="$case_root/exit0.sh" md gate run unit > /dev/null 2>&1 || true
expect_open gates-green "unit|BASH_ENV|environment" "owed refused"
expect_run 10 md check
