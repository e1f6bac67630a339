# What a runner reads for what to run is as much the gate as its command:
# the task turns the Makefile's test recipe into `true`, commits, and runs
# `make -s test` through the gate. The pass is the gate's (the policy's
# command is unchanged, and the Makefile is the task's code, for review and
# CI to judge), but it is in plain sight: the Makefile is named beside the
# verdict, as a script the command names is (test/cases/142).
source "$(dirname "$0")/../lib.sh" || exit 2

command -v make > /dev/null || fail "make is needed"
mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "no forge here"

[gates.unit]
run = "make -s test"
inputs = ["**"]
TOML
printf 'test:\n\tgrep -q fixed src/lib.rs\n' > Makefile
echo "fn a() {}" > src/lib.rs
commit_all "initial"
start_and_break_fix_a
printf 'test:\n\ttrue\n' > Makefile
commit_all "a test that tests nothing"
expect_run 0 md gate run unit
expect_answer gates-green "pass" "the runner its command names reads Makefile, changed since the start"
