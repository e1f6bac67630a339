# A variant on its own evidence: pushed reads HEAD's reflog to
# find the commits this worktree made. `git reflog expire --expire=now
# --all` (an ordinary command) empties it after the task committed on
# topic and switched away. A reflog cut since the start is no proof that
# nothing was made: pushed is owed or unknown, never pass.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_pushed_branch topic
git checkout -q topic
mkdir -p src tests
echo a > src/a.rs
echo t > tests/a.rs
commit_all "topic work"
git checkout -q main
git reflog expire --expire=now --all
[ -z "$(git reflog show HEAD 2> /dev/null)" ] || fail "setup: the reflog is not empty"
expect_open pushed "topic|reflog" "owed unknown"
expect_run 10 md check
