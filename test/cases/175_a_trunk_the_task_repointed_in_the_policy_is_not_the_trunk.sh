# README, "The policy in force", through [trunk]: the task points the policy's trunk at its
# own pushed branch, and `integrated` passes with nothing on the real
# trunk. The start's [trunk] (here: none, so origin/HEAD) is in force.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
commit_a_feature feature
git push -q -u origin feature
expect_open integrated "origin/main"

mkdir -p .ai/repo
printf '[trunk]\nremote = "origin"\nbranch = "feature"\n' > .ai/repo/majordomus.toml
expect_open integrated "origin/main"
commit_all "the trunk is my branch"
git push -q
expect_open integrated "origin/main"
expect_run 10 md check
