# README, "The policy in force": a task that breaks the policy file (one
# stray line) does not reach an allowed stop. Without a task a policy with
# problems stops every command with exit 2; with one, the start's policy
# stays in force, so the hook still measures under it, blocks, and names
# the broken file; check refuses gates-green until it is repaired.
source "$(dirname "$0")/../lib.sh" || exit 2

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
expect_run 10 md check
expect_contains "gates-green=refused"
expect_contains "no longer reads as a policy"
