# An agent (here a stand-in for Claude Code, which names its session to the
# commands it runs with CLAUDECODE=1 and CLAUDE_CODE_SESSION_ID) runs
# `majordomus start` through a script whose shell exits as soon as it is
# done. The task is the agent's: sweep reports it live, with its session,
# while the agent runs, and left behind once the agent is gone.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"

mkdir -p "$case_root/bin"
mkfifo "$case_root/ready" "$case_root/hold"
cat > "$case_root/oneshot.sh" <<'SH'
"$MAJORDOMUS" start "the agent's task" > /dev/null
SH
# The stand-in agent: runs the one-shot script, says so, then waits to be released.
cat > "$case_root/bin/claude" <<'SH'
#!/usr/bin/env bash
bash "$ONESHOT"
echo started > "$READY"
read -r _ < "$HOLD"
SH
chmod +x "$case_root/bin/claude"
ONESHOT="$case_root/oneshot.sh" READY="$case_root/ready" HOLD="$case_root/hold" \
  CLAUDECODE=1 CLAUDE_CODE_SESSION_ID=session-42 "$case_root/bin/claude" &
agent=$!
read -r _ < "$case_root/ready"

json_get .ai/local/state/task.json "d['owner']['session']" | grep -q "'id': 'session-42'" ||
  fail "the session is not recorded: $(cat .ai/local/state/task.json)"
[ "$(json_get .ai/local/state/task.json "d['owner']['pid']")" = "$agent" ] || fail "the owner is not the agent's process"
expect_run 0 md sweep
expect_contains "its owner pid $agent (Claude Code session session-42) still runs"
expect_contains "0 left behind"

echo go > "$case_root/hold"
wait "$agent"
expect_run 10 md sweep
expect_contains "left behind"
expect_contains "(Claude Code session session-42)"
