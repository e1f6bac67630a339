# `git update-ref refs/remotes/origin/main HEAD` would make
# pushed and integrated pass with nothing pushed. A remote-tracking ref that moved
# since the start by anything but a fetch from, or a push to, its remote is
# not evidence of the remote: named, and answered as if it had not moved.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a change"
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "the change"
expect_open pushed "origin/main" "owed"
expect_also integrated "origin/main" "owed"
git update-ref refs/remotes/origin/main HEAD
expect_open pushed "origin/main" "owed"
expect_also integrated "origin/main" "owed"
expect_run 10 md check
