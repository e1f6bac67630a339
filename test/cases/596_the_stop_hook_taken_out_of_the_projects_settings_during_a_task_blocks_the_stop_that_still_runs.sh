# The hosts read their hooks when a session starts: majordomus's stop hook
# taken out of the project's `.claude/settings.json` or `.codex/hooks.json`
# (where `hook install` put it and the start commit held it), committed and
# pushed with the work, leaves `check` at `done: complete` and every session
# started afterwards with no stop hook of
# majordomus's. The stop of the session still running it blocks once,
# naming the file and `hook install` as the remedy (a stop that comes of
# that block goes through saying it); put back, or installed for the user
# instead, it says nothing.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
cat >> .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "regression-tested"
reason = "a settings-only repository"
TOML
md hook install --agent claude >/dev/null
md hook install --agent codex >/dev/null
commit_all "initial, the hooks installed"
with_origin
md start "tidy the settings" >/dev/null

without_stop_hook() {
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["hooks"]["Stop"]
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
}
without_stop_hook .claude/settings.json
without_stop_hook .codex/hooks.json
commit_all "settings: no stop hook"
git push -q
expect_run 0 md check
expect_done_line "done: complete (14 pass, 5 exempt)"

# Claude Code's stop.
stop_hook "$PWD"
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the stop hook taken out of .claude/settings.json"
expect_contains "majordomus's stop hook is no longer in $PWD/.claude/settings.json (the task's start commit held it)"
expect_contains "remedy: put it back: majordomus hook install --agent claude"
payload=$(printf '{"session_id":"s-1","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":true}' "$PWD")
expect_run 0 bash -c 'printf "%s" "$1" | "$MAJORDOMUS" hook stop 2>/dev/null' _ "$payload"
[ "$(hook_decision)" != "block" ] || fail "a stop that came of the block was blocked again"
expect_contains ".claude/settings.json"

# Codex's stop.
stop_hook "$PWD" --agent codex
[ "$(hook_decision)" = "block" ] || fail "the stop went through with the stop hook taken out of .codex/hooks.json"
expect_contains "no longer in $PWD/.codex/hooks.json"
expect_contains "majordomus hook install --agent codex (and review it"

# The honest ways out: put back in the project, or installed for the user instead.
md hook install --agent claude >/dev/null
commit_all "settings: the stop hook back"
git push -q
stop_hook "$PWD"
[ -z "$out" ] || fail "the stop was not let through silently with the stop hook put back"
md hook install --agent codex --user >/dev/null
stop_hook "$PWD" --agent codex
[ "$out" = "{}" ] || fail "the codex stop was not let through with the hook installed for the user"
