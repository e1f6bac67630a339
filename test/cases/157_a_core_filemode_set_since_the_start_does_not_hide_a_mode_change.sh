# Issue 10 §5, the ignore-rules class through configuration: the task makes
# a script executable, then `git config core.fileMode false`, and git
# status (and committed) see nothing. Configuration that hides changes and
# was not there at the start does not hide them: committed is owed.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo "echo hi" > run.sh
commit_all "initial"
expect_run 0 md start "a"
chmod +x run.sh
expect_open committed "run.sh" "owed"
git config core.fileMode false
[ -z "$(git status --porcelain)" ] || fail "setup: git still sees the mode"
expect_open committed "run.sh" "owed"
expect_run 10 md check
