#!/usr/bin/env bash
# bench/ordinary.sh — `majordomus check` against `git status` at the size of
# an ordinary project, in the states an agent stops in most.
#
#   bench/ordinary.sh [--runs N] [--record] [DIR]
#
#   DIR        where the repositories go (default ${TMPDIR:-/tmp}/majordomus-bench-ordinary);
#              the base is built once with bench/make-large-repo.sh and reused
#   --runs N   measured rounds (default 15), after 2 unmeasured ones
#   --record   append the figures to bench/results.txt
#   MAJORDOMUS=/path/to/majordomus   this binary instead of a release build of this checkout
#                  (BENCH_BINARY_FROM=COMMIT: the commit it was built from, for the record)
#
# The base: 1,000 files, 5,000 trunk commits, 20 branches with reflogs, one
# debt baseline of 100 entries, a bare remote with main and 8 branches
# pushed and tracked. Two copies of it, each with a task started:
#   edited     on main, one tracked file edited and not committed
#   unpushed   on a task branch made from main, one commit the remote lacks
#              (the squash-merge search runs here)
#   gated      edited, in a project with the gate `init`'s starter policy
#              declares (one command over every file, `inputs = ["**"]`,
#              committed and pushed before the start), run after the edit:
#              every check hashes the gate's inputs to see its verdict is
#              current (its own remote, so the base's stays as it was)
# In each, alternating rounds of `check --json` and `git status
# --porcelain=v2 --branch -uall` (hermetic, warm caches); in `unpushed`,
# `hook stop` on a Stop payload too. Prints the medians, the ratios and the
# load average at the start and the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/measure.sh"

runs=15
record=0
dir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift ;;
        --record) record=1 ;;
        -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) dir=$1 ;;
    esac
    shift
done
dir=${dir:-${TMPDIR:-/tmp}/majordomus-bench-ordinary}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

bench_binary
go_hermetic

base="$dir/base"
if [ ! -f "$base/.git/majordomus-bench" ]; then
    echo "== building $base"
    BENCH_FILES=1000 BENCH_BRANCHES=20 BENCH_WORKTREES=0 BENCH_BASELINES=1 BENCH_BASELINE_ENTRIES=100 \
        BENCH_MAIN_COMMITS=5000 BENCH_UPSTREAMS=8 "$here/make-large-repo.sh" --force "$base" | tail -n 1
fi

# The states, made afresh from the base on every run.
rm -rf "$dir/edited" "$dir/unpushed" "$dir/gated" "$dir/gated.origin.git"
cp -a "$base" "$dir/edited"
cp -a "$base" "$dir/unpushed"
cp -a "$base" "$dir/gated"
cp -a "$base.origin.git" "$dir/gated.origin.git"
(
    cd "$dir/edited"
    "$bin" start "bench: an edit" >/dev/null
    echo "// edited" >> src/mod-000/sub-0/file-000001.rs
)
(
    cd "$dir/unpushed"
    git checkout -q -b task/one
    "$bin" start "bench: a commit" >/dev/null
    echo "// edited" >> src/mod-000/sub-0/file-000001.rs
    git commit -qam "an unpushed change"
)
(
    cd "$dir/gated"
    git remote set-url origin "$dir/gated.origin.git"
    mkdir -p .ai/repo
    printf '[gates.unit]\nrun = "true"\ninputs = ["**"]\n' > .ai/repo/majordomus.toml
    git add .ai/repo/majordomus.toml
    git commit -qm "the starter's gate: one command over every file"
    git push -q origin main
    "$bin" start "bench: an edit, its gate run" >/dev/null
    echo "// edited" >> src/mod-000/sub-0/file-000001.rs
    "$bin" gate run --all >/dev/null 2>&1
)
payload="$bench_home/stop.json"
printf '{"session_id":"bench","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done","background_tasks":[]}' \
    "$dir/unpushed" > "$payload"

load_start=$(load1)
echo "== $(nproc) cores, load average $load_start; $bin ($bench_commit); $runs rounds"
report=()
for state in edited unpushed gated; do
    cd "$dir/$state"
    if [ "$state" = unpushed ]; then
        out=$(alternate "$runs" "check=$bin check --json" "status=$status_cmd" "stop=@$payload $bin hook stop")
    else
        out=$(alternate "$runs" "check=$bin check --json" "status=$status_cmd")
    fi
    c=$(awk '$1 == "check" { print $2 }' <<< "$out")
    s=$(awk '$1 == "status" { print $2 }' <<< "$out")
    line="ordinary state=$state check_ms=$c status_ms=$s ratio=$(ratio "$c" "$s")"
    if [ "$state" = unpushed ]; then
        h=$(awk '$1 == "stop" { print $2 }' <<< "$out")
        line="$line hook_stop_ms=$h stop_vs_check=$(ratio "$h" "$c")"
    fi
    echo "$line"
    report+=("$line")
done
load_end=$(load1)
echo "== load average $load_start at the start, $load_end at the end"

if [ "$record" -eq 1 ]; then
    {
        echo "## $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $bench_commit — bench/ordinary.sh, $runs alternating rounds, medians (ms)"
        echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), git $(git --version | sed 's/^git version //'); load average (1 min) $load_start at the start, $load_end at the end"
        printf '%s\n' "${report[@]}"
        echo
    } >> "$here/results.txt"
    echo "== appended to $here/results.txt"
fi
