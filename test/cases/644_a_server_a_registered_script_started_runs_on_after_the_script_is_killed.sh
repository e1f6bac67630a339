#!/usr/bin/env bash
# no-background-work asks that no background process the task registered
# still runs. `./serve.sh &` started a server in the background and waited
# for it; `majordomus bg add $!` registered the script, and `kill $!`
# ended the script alone: the server, reparented to pid 1, ran on, and the
# question passed ("has ended"). The processes below registered work are
# now read while it runs (`bg add`, `check`, `hook stop`) and recorded in
# the ledger, pid and start time: one still running counts as the work,
# named in the evidence, and `bg forget` names it to end.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
expect_run 0 md start "serve the docs"
cat > "$case_root/serve.sh" <<'SH'
#!/bin/sh
sleep 644 &
echo $! > "$1"
wait
SH
chmod +x "$case_root/serve.sh"
"$case_root/serve.sh" "$case_root/server.pid" &
script=$!
trap 'kill $script $(cat "$case_root/server.pid" 2> /dev/null) 2> /dev/null || true; rm -rf "$case_root"' EXIT
for _ in $(seq 50); do [ -s "$case_root/server.pid" ] && break; sleep 0.1; done
server=$(cat "$case_root/server.pid")
expect_run 0 md bg add "$script" --what "the docs server"
kill "$script"
wait "$script" 2> /dev/null || true
# The fact: the server still runs, its parent pid 1 (or a subreaper).
ps -p "$server" -o comm= | grep -q sleep || fail "the server should still run"

expect_open no-background-work "pid $script \(the docs server\) has ended, but what it started still runs: pid $server \(sleep\)" "owed"
expect_run 2 md bg forget "$script"
expect_contains "kill $script $server"
expect_run 0 md bg list
expect_contains "still running below it: pid $server (sleep)"

# Ended, the work is over.
kill "$server"
for _ in $(seq 50); do ps -p "$server" > /dev/null || break; sleep 0.1; done
expect_answer no-background-work "pass" "pid $script \(the docs server\) has ended"
