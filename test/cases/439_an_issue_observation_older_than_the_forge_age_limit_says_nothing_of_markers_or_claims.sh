#!/usr/bin/env bash
# `[forge] max_age_minutes` bounds how old a forge observation may be and
# still count. backlog-not-grown kept it (case 177); the issue questions
# did not: a marker naming an issue the observation (older than the limit)
# saw open passed markers-live, whatever the forge said since. Past the
# limit the observation says nothing of an issue either: unknown, naming
# the limit.
source "$(dirname "$0")/../lib.sh" || exit 2

L="LIMIT""ATION"
mkdir -p .ai/repo src
printf '[forge]\nmax_age_minutes = 30\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
echo 'pub fn a() {}' > src/lib.rs
commit_all "initial"
expect_run 0 md start "a"
echo "// $L(#9): the trailer is not parsed" >> src/lib.rs
commit_all "a, and a known gap"
# The task started two hours ago (set in the record, as a fixture); the
# forge was observed ninety minutes ago, #9 open and labelled then.
started_hours_ago_observed_minutes_ago 2 90 \
  '[{"repository": "acme/widgets", "number": 9, "state": "open", "labels": ["limitation"]}]'
expect_open markers-live "names #9, which was observed at .*older than the policy's \[forge\] max_age_minutes = 30" unknown
