# A repository with no forge says so once, in its policy: backlog-not-grown
# is exempt with that reason, and `check` shows it; `forge refresh` has
# nothing to observe and says why. Without the declaration and without gh,
# the question is unknown and its remedy names the declaration. Where the
# repository has no remote, nor had one at the start, no forge could
# observe the work, so the declaration takes nothing away: it holds for
# the task left open, which the next start continues under the policy it
# started under (test/cases/381), as it would during the task.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
expect_run 0 md start "no forge"
echo more >> README
commit_all "work"
# No gh anywhere on PATH: the question cannot be answered, and says how to settle it.
PATH="/usr/bin:/bin" expect_run 10 md check
expect_contains "backlog-not-grown=unknown"
expect_contains 'say so in .ai/repo/majordomus.toml: [forge] provider = "none"'
PATH="/usr/bin:/bin" expect_run 2 md forge refresh
expect_contains "gh was not found on PATH"
expect_contains '[forge] provider'
expect_run 0 md finish --outcome failed

mkdir -p .ai/repo
printf '[forge]\nprovider = "none"\n' > .ai/repo/majordomus.toml
commit_all "the repository has no forge"
expect_run 0 md start "no forge, declared"
expect_contains 'continues "no forge"'
mkdir -p tests && echo 'test -s README' > tests/readme.sh
commit_all "more work, tested"
expect_run 0 md check
expect_contains 'exempt   backlog-not-grown  The policy declares no forge ([forge] provider = "none")'
expect_done_line "done: complete (14 pass, 5 exempt)"
expect_run 2 md forge refresh
expect_contains 'the policy declares no forge'
