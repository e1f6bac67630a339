#!/usr/bin/env bash
# Drives the real Claude Code and Codex through turns with majordomus's hooks
# installed, against a scripted model on 127.0.0.1 (test/hosts/mock_model.py),
# and checks what the hosts did with the hooks' answers. An optional, manual
# verification: it needs npm (the hosts come from the npm registry) and is
# not part of test/run.sh. See test/hosts/README.md; what a run showed is in
# test/hosts/RESULTS.md.
#
#   bash test/hosts/run.sh                 both hosts, every scenario
#   bash test/hosts/run.sh claude|codex    one host
#
# Environment: CLAUDE_CODE_VERSION, CODEX_VERSION (default: the registry's
# `latest`), MAJORDOMUS_HOSTS_NPM (the npm prefix the hosts are installed
# into; default ${TMPDIR:-/tmp}/majordomus-hosts-npm), KEEP=1 (keep the
# scratch directory). Ends with `N passed, N failed`.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
only=${1-}
npm_prefix=${MAJORDOMUS_HOSTS_NPM:-${TMPDIR:-/tmp}/majordomus-hosts-npm}
work=$(mktemp -d "${TMPDIR:-/tmp}/majordomus-hosts.XXXXXX")
passed=0
failed=0
mock_pid=""

cleanup() {
  [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null
  if [ "${KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

ok() { passed=$((passed + 1)); printf 'ok    %s\n' "$1"; }
bad() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$1"; }
check() { # check DESCRIPTION COMMAND...: ok when the command succeeds
  local what=$1
  shift
  if "$@" >/dev/null 2>&1; then ok "$what"; else bad "$what"; fi
}
need() { command -v "$1" >/dev/null 2>&1 || { echo "test/hosts/run.sh needs $1" >&2; exit 2; }; }
need npm
need python3
need git
need cargo

# ---- the hosts, from the npm registry, into a scratch prefix -------------------
version_of() { npm view "$1@$2" version 2>/dev/null | tail -n 1; }
claude_version=$(version_of @anthropic-ai/claude-code "${CLAUDE_CODE_VERSION:-latest}")
codex_version=$(version_of @openai/codex "${CODEX_VERSION:-latest}")
[ -n "$claude_version" ] && [ -n "$codex_version" ] || { echo "the npm registry did not answer" >&2; exit 2; }
mkdir -p "$npm_prefix"
npm install --prefix "$npm_prefix" --no-save --no-audit --no-fund --loglevel=error \
  "@anthropic-ai/claude-code@$claude_version" "@openai/codex@$codex_version" >/dev/null || exit 2
claude="$npm_prefix/node_modules/.bin/claude"
codex="$npm_prefix/node_modules/.bin/codex"
echo "Claude Code $("$claude" --version 2>/dev/null), $("$codex" --version 2>/dev/null)"

# ---- majordomus, behind a wrapper that keeps every hook payload and answer ----
(cd "$root" && cargo build --quiet --bin majordomus) || exit 2
real="$(cd "$root" && cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/majordomus"
mkdir -p "$work/bin"
cat >"$work/bin/majordomus" <<EOF
#!/bin/sh
# Keeps the command line and the host's input of every agent hook, and
# majordomus's answer.
case "\$1 \$2" in
  "hook stop"|"hook session-start")
    payload=\$(cat)
    printf '%s\\n%s\\n' "\$*" "\$payload" >>"$work/payloads.log"
    printf '%s' "\$payload" | "$real" "\$@" | tee -a "$work/answers.log" ;;
  *) exec "$real" "\$@" ;;
esac
EOF
chmod +x "$work/bin/majordomus"
export PATH="$work/bin:$PATH"

# ---- the mock model ------------------------------------------------------------
python3 "$root/test/hosts/mock_model.py" --port-file "$work/port" --log "$work/requests.jsonl" --max-seconds 1800 &
mock_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
mkdir -p "$work/home" "$work/codex-home"
# Codex runs each command in a login shell (`bash -lc`), whose PATH is the
# one /etc/profile sets unless the user's profile says otherwise: here it
# says what a user's would, the PATH of the terminal the task started in.
printf 'export PATH=%q\n' "$PATH" >"$work/home/.profile"
cat >"$work/codex-home/config.toml" <<EOF
model = "mock-model"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:$port/v1"
wire_api = "responses"
EOF

# fresh NAME AGENT...: a scratch repository with majordomus's hooks for each
# agent committed, and a task started; cd into it.
fresh() {
  local dir="$work/$1"
  shift
  git init -q -b main "$dir" && cd "$dir" || exit 2
  git config user.email hosts@example.com
  git config user.name "Hosts Check"
  echo hello >README
  mkdir -p .ai/repo
  # No remote, no forge here: those two questions cannot be answered.
  printf '[[exempt]]\nquestion = "pushed"\nreason = "a scratch repository with no remote"\n' >.ai/repo/majordomus.toml
  printf '[[exempt]]\nquestion = "backlog-not-grown"\nreason = "a scratch repository with no forge"\n' >>.ai/repo/majordomus.toml
  [ -z "${with_gate:-}" ] || printf '[gates.unit]\nrun = "test -f greet.rs"\ninputs = ["**"]\n' >>.ai/repo/majordomus.toml
  for agent in "$@"; do majordomus hook install --agent "$agent" >/dev/null; done
  git add -A && git commit -q -m "the scratch repository"
  # Started as the user would, in the home the hosts run in.
  HOME="$work/home" majordomus start "add a greeting" >/dev/null
  : >"$work/requests.jsonl"
}

run_claude() { # run_claude PROGRAM OUT FLAGS...: one `claude -p` session here
  local program=$1 out=$2
  shift 2
  env HOME="$work/home" ANTHROPIC_BASE_URL="http://127.0.0.1:$port" ANTHROPIC_API_KEY=mock-key \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
    timeout 300 "$claude" -p "PROGRAM: $program" --allowedTools Bash --output-format stream-json --verbose "$@" \
    >"$work/$out" 2>"$work/$out.err" </dev/null
}

# The terminal interface would otherwise leave Codex's app-server daemon
# running after it exits.
run_codex() { # run_codex PROGRAM OUT FLAGS...: one `codex exec` session here
  local program=$1 out=$2
  shift 2
  env HOME="$work/home" CODEX_HOME="$work/codex-home" \
    timeout 300 "$codex" exec --json -s danger-full-access --disable daemon_auto_start "$@" "PROGRAM: $program" \
    >"$work/$out" 2>"$work/$out.err" </dev/null
}

# requests WHAT: asks the mock's request log (python, over `rs`, the requests)
requests() { python3 - "$work/requests.jsonl" "$1" <<'EOF'
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
body = lambda r: json.dumps(r["body"])
sys.exit(0 if eval(sys.argv[2], {"rs": rs, "body": body, "json": json}) else 1)
EOF
}
complete() { majordomus check >/dev/null; }
guards() { ls .ai/local/state/hook 2>/dev/null | grep -c "^$1-" ; }
has_guard() { [ "$(guards "$1")" -ge "${2:-1}" ]; }
# no_hook_ran: the session ran (the model was asked), and no majordomus
# hook did (a session start writes the completion document, a stop a guard).
no_hook_ran() {
  requests 'len(rs) > 0' && [ ! -e .ai/local/state/hook ] && [ ! -e .ai/local/state/gates.completion.json ]
}

if [ "$only" != codex ]; then
  echo "-- Claude Code"
  fresh claude-basic claude
  run_claude basic claude-basic.jsonl
  check "SessionStart: the additionalContext reaches the model" \
    requests 'any("SessionStart hook additional context: majordomus: the task" in body(r) for r in rs)'
  check "Stop: blocked, and the block's reason reaches the model" \
    requests 'any(r["program"] == "basic" and "majordomus blocked this stop" in r["last_user"] for r in rs)'
  check "Stop: the agent continued, committed, and its last stop went through" complete

  fresh claude-unhook claude
  run_claude unhook claude-unhook.jsonl
  check "The agent's write taking the hooks out of .claude/settings.json: refused, the file as it was" \
    bash -c 'grep -q "majordomus hook stop --agent claude" .claude/settings.json && grep -q "requested permissions to write to .*claude/settings.json" "$0"' "$work/claude-unhook.jsonl"
  check "... and the next stop, over work left uncommitted, blocked" \
    requests 'any(r["program"] == "unhook" and "majordomus blocked this stop" in r["last_user"] for r in rs)'

  with_gate=1 fresh claude-gate claude
  run_claude gate claude-gate.jsonl
  check "A gate run from the host's shell, then as gate run says where its environment is not the start's: the pass counts" \
    bash -c 'grep -q gate-passed "$0" && majordomus check >/dev/null' "$work/claude-gate.jsonl"

  fresh claude-subagent claude
  run_claude subagent claude-subagent.jsonl
  check "SubagentStop: blocked, and the subagent continued with the reason" \
    requests 'any(r["program"] == "sub-worker" and "majordomus blocked this stop" in r["last_user"] for r in rs)'
  check "SubagentStop: a guard of its own beside the main agent's" has_guard claude-subagent
  check "SubagentStop: the main agent then finished the work" complete

  fresh claude-background claude
  run_claude background claude-background.jsonl
  check "Background work: the stop while it runs is a pause, let through naming it" \
    grep -q 'as a pause: background work still runs' "$work/claude-background.jsonl"
  check "Background work: recorded in the ledger while it ran" \
    grep -q '"kind":"agent_background","tasks":\[{' .ai/local/state/ledger.jsonl
  check "Background work: the host woke the session when it ended, and the work was judged and finished" complete

  fresh claude-subagent-bg claude
  run_claude subagent-bg claude-subagent-bg.jsonl
  check "A background subagent: the main agent's stop while it runs is a pause" \
    grep -q "as a pause: background work still runs" "$work/claude-subagent-bg.jsonl"
  check "A background subagent: its own SubagentStop is judged (blocked), not paused" \
    requests 'any(r["program"] == "sub-worker" and "majordomus blocked this stop" in r["last_user"] for r in rs)'
  check "A background subagent: the session finished the work" complete

  fresh claude-sessions claude
  run_claude idle claude-idle-1.jsonl
  run_claude idle claude-idle-2.jsonl
  check "Guards: two sessions, two guards" has_guard claude-main 2
  check "Guards: each session's first stop was its own first block" \
    requests 'sum("block 1 of 3" in r["last_user"] for r in rs) == 2'

  fresh claude-disable claude
  run_claude disable claude-disable.jsonl
  check "The agent's write of disableAllHooks to .claude/settings.local.json: refused unasked, the file not written" \
    bash -c '[ ! -e .claude/settings.local.json ] && grep -q "requested permissions to write to .*claude/settings.local.json" "$0"' "$work/claude-disable.jsonl"
  # Written by the person (or an agent they granted it): a session started
  # after it runs no hook, which is why majordomus's stop names the key
  # where a stop still runs (test/cases/595).
  printf '{"disableAllHooks": true}\n' >.claude/settings.local.json
  : >"$work/requests.jsonl"
  rm -rf .ai/local/state/hook .ai/local/state/gates.completion.json
  run_claude idle claude-disable-next.jsonl
  check "... written by the person, a session started after it runs no hook at all" no_hook_ran
  rm -f .claude/settings.local.json

  fresh claude-subdirectory claude
  mkdir -p src && (cd src && run_claude idle claude-subdirectory.jsonl)
  check "Started in a subdirectory, the project's .claude/settings.json is not read: no hook ran" no_hook_ran
  HOME="$work/home" majordomus hook install --agent claude --user >/dev/null
  (cd src && run_claude idle claude-subdirectory-user.jsonl)
  check "Installed with --user, the hooks run wherever the session starts" \
    requests 'any("SessionStart hook additional context: majordomus" in body(r) for r in rs) and any("majordomus blocked this stop" in r["last_user"] for r in rs)'
  rm -f "$work/home/.claude/settings.json"
fi

if [ "$only" != claude ]; then
  echo "-- Codex"
  fresh codex-untrusted codex
  run_codex idle codex-untrusted.jsonl
  check "An untrusted project: its hooks do not run (and exec warns of project configuration)" no_hook_ran
  grep -q "Untrusted project-local configuration is disabled" "$work/codex-untrusted.jsonl.err" ||
    echo "      (the warning was not seen)"

  fresh codex-unreviewed codex
  run_codex idle codex-unreviewed.jsonl --trust
  check "A trusted project, hooks not reviewed: codex exec skips them" no_hook_ran
  check "... without a word" bash -c "! grep -qi hook '$work/codex-unreviewed.jsonl'"

  fresh codex-basic codex
  run_codex basic codex-basic.jsonl --trust --dangerously-bypass-hook-trust
  check "SessionStart: the additionalContext reaches the model (a developer message)" \
    requests 'any("majordomus: the task" in json.dumps(i) for r in rs[:1] for i in r["body"]["input"] if i.get("role") == "developer")'
  check "Stop: blocked, and the block's reason reaches the model" \
    requests 'any("majordomus blocked this stop" in r["last_user"] for r in rs)'
  check "Stop: the agent continued, committed, and its last stop went through" complete

  fresh codex-unhook codex
  run_codex unhook codex-unhook.jsonl --trust --dangerously-bypass-hook-trust
  check "The agent takes the hooks out of .codex/hooks.json mid-session (the file now {})" \
    bash -c '[ "$(cat .codex/hooks.json)" = "{}" ]'
  check "... and the next stop, over work left uncommitted, is still blocked (the session's hooks are the ones it started with)" \
    requests 'any(r["program"] == "unhook" and "majordomus blocked this stop" in r["last_user"] for r in rs)'

  with_gate=1 fresh codex-gate codex
  run_codex gate codex-gate.jsonl --trust --dangerously-bypass-hook-trust
  check "A gate run from the host's shell, then as gate run says where its environment is not the start's: the pass counts" \
    bash -c 'grep -q gate-passed "$0" && majordomus check >/dev/null' "$work/codex-gate.jsonl"

  fresh codex-subagent codex
  run_codex codex-subagent codex-subagent.jsonl --trust --dangerously-bypass-hook-trust
  check "SubagentStop: Codex's subagent is blocked and continues with the reason" \
    requests 'any(r["program"] == "sub-worker" and "majordomus blocked this stop" in r["last_user"] for r in rs)'
  check "SubagentStop: a guard of its own beside the main agent's" has_guard codex-subagent
  check "SubagentStop: the main agent then finished the work" complete

  if command -v tmux >/dev/null; then
    fresh codex-reviewed codex
    tmux new-session -d -s "majordomus-hosts-$$" -x 160 -y 50 \
      "cd '$work/codex-reviewed' && env HOME='$work/home' CODEX_HOME='$work/codex-home' PATH='$PATH' '$codex' --disable daemon_auto_start"
    # Whichever screen comes up, in whatever order (it varies from one start
    # to the next): the folder's trust prompt is accepted, the hooks' review
    # (shown as the TUI starts in a trusted folder, or after /hooks) is
    # answered "Trust all and continue", and the composer is sent /hooks
    # once while no review has been shown.
    sent=0
    for _ in $(seq 150); do
      screen=$(tmux capture-pane -t "majordomus-hosts-$$" -p 2>/dev/null || true)
      if grep -q "Trust all and continue" <<<"$screen"; then
        tmux send-keys -t "majordomus-hosts-$$" Down && sleep 0.5 && tmux send-keys -t "majordomus-hosts-$$" Enter
        break
      elif grep -q "Trust and continue" <<<"$screen"; then
        tmux send-keys -t "majordomus-hosts-$$" Enter && sleep 1
      elif [ "$sent" = 0 ] && grep -q "Ask Codex" <<<"$screen"; then
        tmux send-keys -t "majordomus-hosts-$$" "/hooks" && sleep 1 && tmux send-keys -t "majordomus-hosts-$$" Enter
        sent=1
      fi
      sleep 0.2
    done
    for _ in $(seq 50); do grep -q 'codex-reviewed/.codex/hooks.json:stop' "$work/codex-home/config.toml" && break; sleep 0.2; done
    tmux kill-session -t "majordomus-hosts-$$" 2>/dev/null
    check "Reviewed in the TUI: a trusted hash per hook in config.toml" \
      grep -q 'codex-reviewed/.codex/hooks.json:subagent_stop' "$work/codex-home/config.toml"
    run_codex basic codex-reviewed.jsonl
    check "Reviewed: codex exec runs them with no flag" \
      requests 'any("majordomus blocked this stop" in r["last_user"] for r in rs)'
    majordomus hook install --agent codex --timeout 61 >/dev/null
    majordomus finish --outcome partial >/dev/null && rm -rf .ai/local && majordomus start "again" >/dev/null &&
      : >"$work/requests.jsonl"
    run_codex idle codex-changed.jsonl
    check "A hook changed after its review (only its timeout): skipped again" no_hook_ran
  else
    echo "      (no tmux: the review in Codex's TUI was not driven)"
  fi
fi

# ---- what the hosts sent -------------------------------------------------------
echo "-- payload fields seen"
python3 - "$work/payloads.log" <<'EOF'
import json, os, re, sys
seen = {}
lines = open(sys.argv[1]).read().splitlines() if os.path.exists(sys.argv[1]) else []
for command, payload in zip(lines[0::2], lines[1::2]):
    host = re.search(r"--agent (\w+)", command).group(1)
    try:
        value = json.loads(payload)
    except ValueError:
        continue
    seen.setdefault((host, value.get("hook_event_name")), set()).update(value)
for (host, event), keys in sorted(seen.items()):
    print(f"{host:6} {event:13} {' '.join(sorted(keys))}")
EOF

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
