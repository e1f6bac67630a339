#!/usr/bin/env bash
# no-background-work: what registered work starts and orphans between two
# looks at it (a script that daemonizes its server with `setsid`, `nohup`
# or a double fork, and exits) is seen by no reading of the processes below
# it: with `bg add` the question passed while the server ran. `majordomus
# bg run -- COMMAND` starts the command itself with MAJORDOMUS_BG=MARKER
# in its environment, which every process it starts inherits: each live
# process holding it counts as the work, however it was started.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
expect_run 0 md start "serve the docs"
cat > "$case_root/daemonize.sh" <<'SH'
#!/bin/sh
sleep 0.5
setsid sleep 645 > /dev/null 2>&1 &
echo $! > "$1.a"
nohup sleep 646 > /dev/null 2>&1 &
echo $! > "$1.b"
(sleep 647 & echo $! > "$1.c") > /dev/null 2>&1
exit 0
SH
chmod +x "$case_root/daemonize.sh"
trap 'kill $(cat "$case_root"/d.pid.* 2> /dev/null) 2> /dev/null || true; rm -rf "$case_root"' EXIT
expect_run 0 md bg run --what "the docs server" -- "$case_root/daemonize.sh" "$case_root/d.pid"
expect_contains "MAJORDOMUS_BG="
for _ in $(seq 50); do [ -s "$case_root/d.pid.c" ] && break; sleep 0.1; done
sleep 0.3
a=$(cat "$case_root/d.pid.a") b=$(cat "$case_root/d.pid.b") c=$(cat "$case_root/d.pid.c")
# The fact: the script has exited; its three daemons run, none below it.
for p in $a $b $c; do ps -p "$p" -o comm= | grep -q sleep || fail "pid $p should still run"; done

expect_open no-background-work "has ended, but what it started still runs: .*pid $a \(sleep\)" "owed"
evidence_of no-background-work | grep -q "pid $b (sleep)" || fail "the nohup'd sleep is named"
evidence_of no-background-work | grep -q "pid $c (sleep)" || fail "the double-forked sleep is named"

kill "$a" "$b"
sleep 0.2
expect_open no-background-work "still runs: pid $c \(sleep\)" "owed"
kill "$c"
for _ in $(seq 50); do ps -p "$c" > /dev/null || break; sleep 0.1; done
expect_answer no-background-work "pass" "the docs server\) has ended"

# A command that cannot start registers nothing.
expect_run 2 md bg run -- "$case_root/no-such-program"
expect_contains "nothing was registered"
