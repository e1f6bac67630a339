# Issue 10 §1 with §2, a variant not listed there: a policy with problems
# stops `check` with exit 2, and the stop hook lets a stop through with
# only a systemMessage. A task that breaks the policy file (one stray line)
# must not reach a silent or allowed stop: the start's policy is in force,
# so the hook still measures under it and blocks. (test/cases/060 lets the
# stop through for a broken policy today; it must change with this.)
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

exempt_forge
echo hello > README
commit_all "initial"
expect_run 0 md start "a greeting"
echo 'fn greet() {}' > greet.rs

echo 'this line is not toml' >> .ai/repo/majordomus.toml
stop_hook "$PWD"
[ "$(hook_decision)" = block ] || fail "a policy the task broke let the stop through"
case "$out" in *greet.rs*) ;; *) fail "the block does not name the untracked file" ;; esac
case "$out" in *majordomus.toml*) ;; *) fail "the block does not name the broken policy" ;; esac
