# Claude Code reads its settings when a session starts: `disableAllHooks:
# true` written by the agent into `.claude/settings.local.json` (which git
# ignores, so no question sees it) or the user's `~/.claude/settings.json`
# turns off every hook of a session started afterwards, and its stops go through unchecked whatever is owed. The stop
# of the session still running its hooks is the last moment majordomus
# runs: with a task active it blocks once, naming the file and the remedy
# (a stop that comes of that block goes through saying it), and says
# nothing once the setting is gone, set false by a later file, or with no
# task. `check` answers the work alone, as before.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
printf '.claude/settings.local.json\n' > .gitignore
exempt_forge
md hook install --agent claude >/dev/null
commit_all "initial, the hooks installed"
with_origin
md start "look into the parser" >/dev/null
md todo add "read the parser" >/dev/null
md todo done 1 >/dev/null
expect_run 0 md check
expect_done_line "done: complete (14 pass, 5 exempt)"
stop_hook "$PWD"
[ -z "$out" ] || fail "a complete task's stop was not let through silently"

blocked_naming() {
  stop_hook "$PWD"
  [ "$(hook_decision)" = "block" ] || fail "the stop went through with the hooks turned off in $1"
  expect_contains "Claude Code runs no hook in a session started now"
  expect_contains "\`disableAllHooks\` is true in $1"
  expect_contains "remove \`disableAllHooks\` from that file"
}

# The project's local settings, which git ignores.
echo '{"disableAllHooks": true}' > .claude/settings.local.json
expect_run 0 md check
expect_done_line "done: complete (14 pass, 5 exempt)"
blocked_naming "$PWD/.claude/settings.local.json"
# The stop that comes of the block goes through, saying it to the person.
payload=$(printf '{"session_id":"s-1","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":true}' "$PWD")
expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ "$payload"
[ "$(hook_decision)" != "block" ] || fail "a stop that came of the block was blocked again"
expect_contains "settings.local.json"

# Work still owed: both are said, in one block.
echo more >> README
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "owed work with the hooks off went through"
expect_contains "committed"
expect_contains "disableAllHooks"
git checkout -q -- README

# The honest way out: the key removed, or set false by the file that overrides the user's.
echo '{}' > .claude/settings.local.json
stop_hook "$PWD"
[ -z "$out" ] || fail "the stop was not let through silently once the key was removed"

# The user's settings, outside the repository.
mkdir -p "$HOME/.claude"
echo '{"disableAllHooks": true}' > "$HOME/.claude/settings.json"
blocked_naming "$HOME/.claude/settings.json"
echo '{"disableAllHooks": false}' > .claude/settings.local.json
stop_hook "$PWD"
[ -z "$out" ] || fail "a local file turning the hooks back on did not let the stop through"

# With no task active, the hooks say nothing and block nothing.
rm .claude/settings.local.json
expect_run 0 md finish --outcome completed
stop_hook "$PWD"
[ -z "$out" ] || fail "a stop with no task was not let through silently"
