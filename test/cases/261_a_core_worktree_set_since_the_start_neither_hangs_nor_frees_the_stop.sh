# `git config core.worktree DIR` points the repository's working tree
# elsewhere: at a clean clone (whose own root then holds no task record), or
# at a directory that does not exist (libgit2 cannot open the repository).
# Neither frees the stop: the hook, asked from where the task started,
# finds the repository through its git directory, ends (a walk that led in
# a circle once never ended), and blocks.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "one" > a.txt
commit_all "initial"
git clone -q . "$case_root/clean"
md start "the parser" >/dev/null
echo "two" >> a.txt

git config core.worktree "$case_root/clean"
out=$(printf '{"session_id":"s-1","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$PWD" |
  timeout 20 "$MAJORDOMUS" hook stop 2>&1) || fail "hook stop did not end within 20 s (exit $?)"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the working tree moved elsewhere"
expect_contains "is gone while its task"

git config core.worktree "$case_root/nowhere"
out=$(printf '{"session_id":"s-2","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$PWD" |
  timeout 20 "$MAJORDOMUS" hook stop 2>&1) || fail "hook stop did not end within 20 s (exit $?)"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the repository unreadable"
expect_contains "the repository cannot be read"

git config --unset core.worktree
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the task's own edit does not block"
expect_contains "committed"
