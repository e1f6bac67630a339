# README, "The policy in force", through [hook]: the start's policy blocks three stops in a
# row; the task lowering block_limit to 1 does not let its second stop
# through.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo
printf '[hook]\nblock_limit = 3\n' > .ai/repo/majordomus.toml
echo hello > README
commit_all "initial"
expect_run 0 md start "a greeting"
echo 'fn greet() {}' > greet.rs

printf '[hook]\nblock_limit = 1\n' > .ai/repo/majordomus.toml
stop_hook "$PWD"
[ "$(hook_decision)" = block ] || fail "the first stop went through"
stop_hook "$PWD"
[ "$(hook_decision)" = block ] || fail "the second stop went through under a block_limit the task lowered"
stop_hook "$PWD"
[ "$(hook_decision)" = block ] || fail "the third stop went through under a block_limit the task lowered"
