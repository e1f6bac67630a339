# README, "The policy in force", through [forge]: the start's policy holds a forge
# observation older than max_age_minutes to be unknown; the task removing
# (or raising) the limit does not make the old observation evidence.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo
# This forge's observations are typed in (forge record), as the policy declares.
printf '[forge]\nmax_age_minutes = 30\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
echo base > README
commit_all "initial"
expect_run 0 md start "a"
# The task started two hours ago (set in the record, as a fixture), and the
# forge was observed ninety minutes ago: after the start, past the limit.
started_hours_ago_observed_minutes_ago 2 90
expect_open backlog-not-grown "max_age_minutes|minutes"

printf '[forge]\nmax_age_minutes = 600\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
expect_open backlog-not-grown "max_age_minutes|minutes"
# Removed whole: the limit stays, and the default forge (observed through gh)
# asks more of the typed observation than the start's policy did.
rm .ai/repo/majordomus.toml
expect_open backlog-not-grown "max_age_minutes|minutes|typed in"
expect_run 10 md check
