# A policy with problems is a configuration error: every problem is reported
# at once with file:line:column, the command exits 2, and nothing runs or
# is written.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src .ai/repo
echo 'fn a() {}' > src/lib.rs
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "touch ran-unit"
inputs = ["src/**"]
colour = "blue"

[[questions]]
id = "documented"
stage = "documentation"
question = "Were the documents updated?"
gate = "docs-check"

[[exempt]]
question = "pushed"

[[exempt]]
question = "no-such-question"
reason = "no reason"

[caps]
pushed = 11
TOML
commit_all "initial"

expect_run 2 md check
expect_contains "majordomus.toml has 5 problems:"
expect_contains "majordomus.toml:4:1: unknown key \`colour\` in [gates.unit]"
expect_contains "majordomus.toml:10:8: the question \`documented\` is answered by the gate \`docs-check\`, which is not declared in [gates]"
expect_contains "majordomus.toml:12:1: [[exempt]] has no \`reason\`"
expect_contains "majordomus.toml:16:12: the exemption names the question \`no-such-question\`"
expect_contains "majordomus.toml:20:10: the cap of \`pushed\` must be 0 to 9, not 11"
[ ! -e .ai/local/state/gates.completion.json ] || fail "check wrote a document over a broken policy"

# Nothing is started and no gate runs over a broken policy.
expect_run 2 md start "work"
[ ! -e .ai/local/state/task.json ] || fail "start wrote a task record over a broken policy"
expect_run 2 md gate run unit
expect_run 2 md gate run --all
expect_run 2 md gate list
[ ! -e ran-unit ] || fail "a gate ran over a broken policy"
[ ! -e .ai/local/state/ledger.jsonl ] || fail "a verdict was recorded over a broken policy"

# A syntax error is reported where it is.
printf '[gates.unit]\nrun = "cargo test\n' > .ai/repo/majordomus.toml
expect_run 2 md check
expect_contains "majordomus.toml:2:"

# A path that can never name a file of the repository is a problem at its place.
printf '[gates.unit]\nrun = "true"\ninputs = ["/etc/**", "../**"]\n' > .ai/repo/majordomus.toml
expect_run 2 md check
expect_contains "majordomus.toml:3:11: the input \`/etc/**\` of gate \`unit\` is absolute"
expect_contains "majordomus.toml:3:22: the input \`../**\` of gate \`unit\` has a \`..\` component"

# A leading ./ is taken off: the input is the same as without it.
printf '[gates.unit]\nrun = "touch ran-unit"\ninputs = ["./src/**"]\n' > .ai/repo/majordomus.toml
expect_run 0 md gate list
expect_contains "src/**"
expect_not_contains "./src"

# Fixed, the same commands work.
printf '[gates.unit]\nrun = "touch ran-unit"\ninputs = ["src/**"]\n' > .ai/repo/majordomus.toml
commit_all "fix the policy"
expect_run 0 md gate run unit
[ -e ran-unit ] || fail "the gate did not run once the policy was fixed"
