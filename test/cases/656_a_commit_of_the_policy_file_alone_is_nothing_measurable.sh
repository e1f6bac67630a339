#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A documentation repository exempts `regression-tested` in its policy. The
# task does nothing but commit a comment in the policy file and push it:
# `measurable` passed ("HEAD holds 1 commit made since the start"), and
# with every other question answered, `done: complete`. A change to the
# policy is the task's rules, not its work (`scoped` reports it apart):
# HEAD's tree is compared with the start's at every path but the policy
# file, so the commit measures nothing; the same holds where a fetch
# brought commits onto HEAD (the task's own commits' paths are read).

mkdir -p docs
echo '# Guide' > docs/guide.md
exempt_forge
cat >> .ai/repo/majordomus.toml <<'TOML'

[[exempt]]
question = "regression-tested"
reason = "documentation only: there is nothing to test"
TOML
commit_all "initial"
with_origin

expect_run 0 md start "document the install"
echo '# reviewed for the install guide' >> .ai/repo/majordomus.toml
commit_all "policy: a note"
git push -q origin main
expect_open measurable "changes no path from the start commit's other than the policy file" owed
expect_run 10 md check
expect_done_line "done: measurable=owed"

# A colleague's commit arrives by `git pull` beside it: still nothing of
# the task's is measured.
colleague "docs: more" 'echo More. >> docs/guide.md'
git pull -q --no-rebase --no-edit
git push -q origin main
expect_open measurable "a change to the policy file alone" owed

# The honest way: the work itself, committed and pushed.
echo 'Run `make install`.' >> docs/guide.md
commit_all "docs: the install"
git push -q origin main
expect_answer measurable pass "HEAD holds 2 commits made since the start"
expect_run 0 md check
