# `git commit --allow-empty` would make
# measurable pass, and a task that changed nothing reaches done: complete.
# A commit that changes nothing measures nothing: measurable is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo base > README
commit_all "initial"
expect_run 0 md start "fix the parser"
expect_open measurable "nothing measurable" "owed"
git commit -q --allow-empty -m "fix the parser"
expect_open measurable "empty|no change|nothing" "owed"
expect_run 10 md check
