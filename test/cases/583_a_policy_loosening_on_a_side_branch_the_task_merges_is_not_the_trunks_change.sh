#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The policy in force moves on with a colleague's change that arrived from
# the remote (464: the trunk's change, pulled). A colleague's loosening on
# a side branch of the remote (a gate's `run` made `true` on `relax-ci`),
# held here at the start or fetched since, that the task merges into its
# branch (fast-forward, or a merge commit) and pushes onto the trunk, was
# read as that arrival: the policy in force became the side branch's, the
# gate ran `true`, done: complete over code the start's gate fails. What
# moves the start's policy on is what the trunk delivered by a fetch, not
# a branch the task chose to merge.

unit_gate_policy
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
relax_on_a_side_branch() {
  git clone -q "$case_root/origin.git" "$case_root/colleague"
  (cd "$case_root/colleague" && git checkout -qb relax-ci &&
    sed -i 's/^run = .*/run = "true"/' .ai/repo/majordomus.toml &&
    GIT_AUTHOR_NAME=Colleague GIT_AUTHOR_EMAIL=c@example.com GIT_COMMITTER_EMAIL=c@example.com git commit -qam "relax the gate" &&
    git push -q origin relax-ci)
}
work_pushed() {
  echo "fn a() { broken }" > src/lib.rs
  echo "fn t() {}" > tests/t.rs
  commit_all "the work"
  git push -q origin main
}

# 1. The side branch was fetched before the start; the task fast-forwards
# onto it.
relax_on_a_side_branch
git fetch -q origin
expect_run 0 md start "fix a"
git merge -q --ff-only origin/relax-ci
work_pushed
expect_run 10 md gate run unit
expect_contains "running \`grep -q fixed src/lib.rs\`"
expect_open gates-green "unit failed" refused
json_get "$case_root/doc.json" "[c['entry'] for c in d['policy']['changes'] if not c['in_force']]" |
  grep -q "gates.unit. run" || fail "the side branch's command is not named a loosening not in force"
json_get "$case_root/doc.json" "d['policy']['start']" | grep -q "arrived from a remote" &&
  fail "the side branch the task merged is read as the start's policy moved on"

# The honest way: the code fixed, the start's gate passes.
echo "fn a() { fixed }" > src/lib.rs
commit_all "the fix"
git push -q origin main
expect_run 0 md gate run unit
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
expect_run 0 md finish --outcome completed

# 2. The side branch pushed since the start, fetched, merged with a merge
# commit.
cd "$case_root" && rm -rf repo colleague origin.git && git init -q -b main repo && cd repo
unit_gate_policy
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"
relax_on_a_side_branch
git fetch -q origin
git merge -q --no-ff --no-edit origin/relax-ci
work_pushed
expect_run 10 md gate run unit
expect_open gates-green "unit failed" refused
expect_run 10 md check
expect_done_line "done: gates-green=refused"

