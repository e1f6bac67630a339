# test/cases/186 under GIT_COMMITTER_DATE in the past: the task commits
# src/lib.rs and takes the commit off HEAD with `git reset --soft HEAD~1`;
# HEAD's reflog lines carry the past date, so reading the reflog by time
# found nothing of the task's, `ack committed` covered its own change and
# the task read done. The lines appended since the start's mark of the
# reflog's end are the task's whatever their time: the ack is refused.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src tests
echo "fn a() {}" > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"
export GIT_COMMITTER_DATE="2001-01-01T00:00:00Z"
echo t > tests/a.rs
commit_all "a test"
echo "fn a() { 1 }" > src/lib.rs
commit_all "fix a"
git reset -q --soft HEAD~1
unset GIT_COMMITTER_DATE
expect_open committed "src/lib.rs" "owed"

md ack committed --why "a peer's edit, not mine" > /dev/null 2>&1 || true
expect_open committed "src/lib.rs" "owed"
expect_run 10 md check
