#!/usr/bin/env bash
# bench/check-vs-status.sh — time `majordomus check` against `git status` on
# the large synthetic repository, in one run, and print the ratio.
#
#   bench/check-vs-status.sh [--runs N] [--warmup N] [--record] [--no-hyperfine] [DIR]
#
#   DIR             the synthetic repository; default ${TMPDIR:-/tmp}/majordomus-bench/repo.
#                   Built with bench/make-large-repo.sh when missing.
#   --runs N        measured runs of each command (default 5; env RUNS)
#   --warmup N      unmeasured warm-up runs of each command first (default 2; env WARMUP)
#   --record        append the figures to bench/results.txt
#   --no-hyperfine  skip the hyperfine cross-check even when hyperfine is installed
#   --status-only   time git status alone (no majordomus binary needed)
#   MAJORDOMUS=/path/to/majordomus   use this binary instead of building one
#                   (default: cargo build --release -p majordomus-cli; honours CARGO_TARGET_DIR)
#
# Measured, alternating in each round (check, status, plain status), warm caches:
#   check   majordomus check --json >/dev/null         exit 0 or 10 accepted (10 = not complete)
#   status  git -c core.fsmonitor=false -c core.untrackedCache=false \
#               status --porcelain=v2 --branch -uall >/dev/null
#   plain   git status >/dev/null                      with the caller's own environment and config
# `check` and `status` run in a hermetic environment: no inherited GIT_*
# variable, GIT_CONFIG_GLOBAL=/dev/null, GIT_CONFIG_NOSYSTEM=1, a throwaway HOME.
# Wall-clock time of each process, taken with bash's $EPOCHREALTIME (no fork
# for the clock). When hyperfine is installed it cross-checks check and
# status in the same run (its runs are blocks, not alternating).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

runs=${RUNS:-5}
warmup=${WARMUP:-2}
record=0
use_hyperfine=1
status_only=0
dir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift ;;
        --warmup) warmup=$2; shift ;;
        --record) record=1 ;;
        --no-hyperfine) use_hyperfine=0 ;;
        --status-only) status_only=1 ;;
        -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) dir=$1 ;;
    esac
    shift
done
[ "$runs" -ge 1 ] 2>/dev/null || { echo "--runs must be a positive number" >&2; exit 2; }
dir=${dir:-${TMPDIR:-/tmp}/majordomus-bench/repo}

# ---- the repository ---------------------------------------------------------
if [ ! -f "$dir/.git/majordomus-bench" ]; then
    echo "== building the synthetic repository in $dir"
    "$here/make-large-repo.sh" "$dir"
fi
dir=$(cd "$dir" && pwd)

# ---- the binary (built with the caller's environment, before going hermetic) --
if [ "$status_only" -eq 1 ]; then
    bin=""
elif [ -n "${MAJORDOMUS:-}" ]; then
    bin=$MAJORDOMUS
else
    echo "== cargo build --release -p majordomus-cli"
    (cd "$root" && cargo build --release -q -p majordomus-cli)
    bin=${CARGO_TARGET_DIR:-$root/target}/release/majordomus
    case "$bin" in /*) ;; *) bin=$root/$bin ;; esac
fi
[ "$status_only" -eq 1 ] || [ -x "$bin" ] || { echo "no majordomus binary at $bin" >&2; exit 1; }

commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit-dirty"
fi
# With MAJORDOMUS set, the binary is the caller's: the commit is only this checkout's.
[ -z "${MAJORDOMUS:-}" ] || [ "$status_only" -eq 1 ] || commit="$commit+binary-from-MAJORDOMUS"

# ---- environments -----------------------------------------------------------
scratch_home=$(mktemp -d "${TMPDIR:-/tmp}/majordomus-bench-home.XXXXXX")
trap 'rm -rf "$scratch_home"' EXIT
hermetic=(env)
while IFS= read -r v; do hermetic+=(-u "$v"); done < <(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
hermetic+=(HOME="$scratch_home" XDG_CONFIG_HOME="$scratch_home/.config"
           GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0)
check_cmd=("$bin" check --json)
status_cmd=(git -c core.fsmonitor=false -c core.untrackedCache=false status --porcelain=v2 --branch -uall)
plain_cmd=(git status)

cd "$dir"

# ---- the machine ------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
cpu=${cpu:-$(uname -m)}
ncpu=$(nproc)
mem=$(awk '/^MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null || echo "?")
gitv=$(git --version | sed 's/^git version //')
load_start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
echo "== machine: $ncpu cores, $cpu, $mem RAM, $(uname -sr), git $gitv; load average (1 min) $load_start"
[ "$status_only" -eq 1 ] && echo "== majordomus: not measured (--status-only)" || echo "== majordomus: $bin (source commit $commit)"
echo "== repository: $dir: $(git ls-files | wc -l) tracked files, $(git for-each-ref refs/heads | wc -l) branches, $(($(git worktree list | wc -l) - 1)) linked worktrees, $(ls .ai/repo/*-baseline.txt 2>/dev/null | wc -l) baselines"

# ---- a task, once -------------------------------------------------------------
if [ "$status_only" -eq 0 ]; then
set +e
"${hermetic[@]}" "$bin" start "bench" >/dev/null 2>"$scratch_home/start.err"
rc=$?
set -e
case $rc in
    0) echo "== majordomus start \"bench\": task started" ;;
    15) echo "== majordomus start \"bench\": a task is already active (exit 15), kept" ;;
    *) echo "majordomus start failed with exit $rc:" >&2; cat "$scratch_home/start.err" >&2; exit 1 ;;
esac
fi

# ---- one timed run of a command -------------------------------------------------
# run_timed NAME ENV... -- CMD...: prints "WALL CPU" in ms (CPU = user + system
# time of the process and its children, from bash's `time`); dies on an
# unexpected exit.
run_timed() {
    local name=$1; shift
    local envp=()
    while [ "$1" != "--" ]; do envp+=("$1"); shift; done
    shift
    local t0 t1 rc TIMEFORMAT='%3U %3S'
    t0=$EPOCHREALTIME
    set +e
    { time "${envp[@]}" "$@" >/dev/null 2>"$scratch_home/$name.err"; } 2>"$scratch_home/$name.time"
    rc=$?
    set -e
    t1=$EPOCHREALTIME
    case "$name:$rc" in
        check:0|check:10|status:0|plain:0) ;;
        *) echo "$name exited $rc (a failure):" >&2; cat "$scratch_home/$name.err" >&2; exit 1 ;;
    esac
    awk -v a="$t0" -v b="$t1" '{ printf "%.1f %.1f\n", (b - a) * 1000, ($1 + $2) * 1000 }' "$scratch_home/$name.time"
}

stats() { # stats FILE COLUMN: "median min max" of that column, in ms
    awk -v k="$2" '{ print $k }' "$1" | sort -n | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.1f %.1f %.1f\n", m, v[1], v[NR] }'
}

: > "$scratch_home/check.ms"; : > "$scratch_home/status.ms"; : > "$scratch_home/plain.ms"
echo "== warm-up: $warmup run(s) of each"
for ((i = 0; i < warmup; i++)); do
    [ "$status_only" -eq 1 ] || run_timed check "${hermetic[@]}" -- "${check_cmd[@]}" >/dev/null
    run_timed status "${hermetic[@]}" -- "${status_cmd[@]}" >/dev/null
    run_timed plain env -- "${plain_cmd[@]}" >/dev/null
done
echo "== $runs alternating rounds (ms, wall / cpu: check, status --porcelain=v2, plain status)"
for ((i = 1; i <= runs; i++)); do
    c="- -"
    [ "$status_only" -eq 1 ] || c=$(run_timed check "${hermetic[@]}" -- "${check_cmd[@]}")
    s=$(run_timed status "${hermetic[@]}" -- "${status_cmd[@]}")
    p=$(run_timed plain env -- "${plain_cmd[@]}")
    [ "$status_only" -eq 1 ] || echo "$c" >> "$scratch_home/check.ms"
    echo "$s" >> "$scratch_home/status.ms"
    echo "$p" >> "$scratch_home/plain.ms"
    printf '   round %2d: %9s / %-9s %9s / %-9s %9s / %-9s\n' "$i" $c $s $p
done
c_med=- c_min=- c_max=- c_cpu=- c_cpu_min=- c_cpu_max=-
if [ "$status_only" -eq 0 ]; then
    read -r c_med c_min c_max < <(stats "$scratch_home/check.ms" 1)
    read -r c_cpu c_cpu_min c_cpu_max < <(stats "$scratch_home/check.ms" 2)
fi
read -r s_med s_min s_max < <(stats "$scratch_home/status.ms" 1)
read -r s_cpu s_cpu_min s_cpu_max < <(stats "$scratch_home/status.ms" 2)
read -r p_med p_min p_max < <(stats "$scratch_home/plain.ms" 1)
read -r p_cpu p_cpu_min p_cpu_max < <(stats "$scratch_home/plain.ms" 2)
ratio_cpu=-
ratio_med=- ratio_min=- ratio_plain=- done_line="(not run: --status-only)"
if [ "$status_only" -eq 0 ]; then
ratio_med=$(awk -v a="$c_med" -v b="$s_med" 'BEGIN { printf "%.2f", a / b }')
ratio_min=$(awk -v a="$c_min" -v b="$s_min" 'BEGIN { printf "%.2f", a / b }')
ratio_plain=$(awk -v a="$c_med" -v b="$p_med" 'BEGIN { printf "%.2f", a / b }')
ratio_cpu=$(awk -v a="$c_cpu" -v b="$s_cpu" 'BEGIN { printf "%.2f", a / b }')

# the outcome of check, for the record (what it answered, not only how fast)
done_line=$("${hermetic[@]}" "$bin" check 2>/dev/null | tail -n 1 || true)
fi

# ---- the hyperfine cross-check ----------------------------------------------------
hf=""
if [ "$use_hyperfine" -eq 1 ] && command -v hyperfine >/dev/null 2>&1; then
    echo "== hyperfine cross-check (--warmup $warmup --runs $runs, no shell; blocks, not alternating)"
    json="$scratch_home/hyperfine.json"
    hf_cmds=(-n status "${status_cmd[*]}")
    [ "$status_only" -eq 1 ] || hf_cmds=(-n check "${check_cmd[*]}" "${hf_cmds[@]}")
    "${hermetic[@]}" hyperfine -N -i --style basic --warmup "$warmup" --runs "$runs" --export-json "$json" \
        "${hf_cmds[@]}" | sed 's/^/   /'
    hf=$(python3 - "$json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
out = []
for name in ("check", "status"):
    if name in r:
        out.append("hf_%s_median_ms=%.1f hf_%s_min_ms=%.1f" % (name, r[name]["median"] * 1e3, name, r[name]["min"] * 1e3))
if "check" in r:
    out.append("hf_ratio_median=%.2f" % (r["check"]["median"] / r["status"]["median"]))
print(" ".join(out))
PY
)
fi

# ---- the report -------------------------------------------------------------------
date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load_end=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
echo
echo "== results ($runs runs each, after $warmup warm-up; wall time in ms)"
printf '   %-58s median %9s   min %9s   max %9s\n' "majordomus check --json" "$c_med" "$c_min" "$c_max"
printf '   %-58s median %9s   min %9s   max %9s\n' "git status --porcelain=v2 --branch -uall (hermetic)" "$s_med" "$s_min" "$s_max"
printf '   %-58s median %9s   min %9s   max %9s\n' "git status (caller's environment)" "$p_med" "$p_min" "$p_max"
printf '   %-58s median %9s   min %9s   (check / status: %s)\n' "cpu (user + sys): check / status" "$c_cpu / $s_cpu" "$c_cpu_min / $s_cpu_min" "$ratio_cpu"
echo "   ratio check/status (wall): median $ratio_med, min $ratio_min (check/plain git status, median: $ratio_plain)"
echo "   check answered: $done_line"
summary="majordomus-bench date=$date_utc commit=$commit nproc=$ncpu cpu=\"$cpu\" git=$gitv runs=$runs warmup=$warmup check_median_ms=$c_med check_min_ms=$c_min status_median_ms=$s_med status_min_ms=$s_min plain_status_median_ms=$p_med plain_status_min_ms=$p_min ratio_median=$ratio_med ratio_min=$ratio_min check_cpu_median_ms=$c_cpu status_cpu_median_ms=$s_cpu plain_status_cpu_median_ms=$p_cpu ratio_cpu_median=$ratio_cpu load1_start=$load_start load1_end=$load_end${hf:+ $hf}"
echo "$summary"

if [ "$record" -eq 1 ]; then
    {
        echo "## $date_utc commit $commit"
        echo "machine: $ncpu cores, $cpu, $mem RAM, $(uname -sr), git $gitv; load average (1 min) $load_start at the start, $load_end at the end"
        echo "repository: $dir ($(git ls-files | wc -l) tracked files, $(git for-each-ref refs/heads | wc -l) branches, $(($(git worktree list | wc -l) - 1)) linked worktrees)"
        echo "check answered: $done_line"
        echo "$summary"
        echo
    } >> "$here/results.txt"
    echo "== appended to $here/results.txt"
fi
