# README, "The policy in force", through [caps]: "and so for anything else the policy
# decides". The score of the same repository state is the same before and
# after the task raises the caps of its own open questions.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo hello > README
commit_all "initial"
expect_run 0 md start "a"
echo 'hello, edited' > README
score() { md score --json > "$case_root/score.json" || true; json_get "$case_root/score.json" 'd["score"]'; }
before=$(score)
[ "$before" -lt 9 ] || fail "setup: the score is already $before"

printf '\n[caps]\ncommitted = 9\nmeasurable = 9\nregression-tested = 9\n' >> .ai/repo/majordomus.toml
after=$(score)
[ "$after" = "$before" ] || fail "the task raised its own score from $before to $after by raising caps"
