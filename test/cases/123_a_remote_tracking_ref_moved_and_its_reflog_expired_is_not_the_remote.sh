# A variant on its own evidence: pushed reads a remote-tracking
# ref's reflog to tell a fetch from a forgery. `git update-ref` followed by
# `git reflog expire --expire=now --all` leaves no reflog to read. A ref that
# moved since the start (the start snapshot knows where it stood) with no
# reflog saying how is not evidence of the remote.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a change"
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "the change"
git update-ref refs/remotes/origin/main HEAD
git reflog expire --expire=now --all
expect_open pushed "origin/main" "owed unknown"
expect_also integrated "origin/main" "owed unknown"
expect_run 10 md check
