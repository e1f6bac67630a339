#!/usr/bin/env bash
# bench/scale.sh — how `majordomus check` grows with the repository, beside
# `git status` on each shape.
#
#   bench/scale.sh [--runs N] [--keep] [--only AXIS] [--record] [DIR]
#
#   DIR          where the repositories go (default ${TMPDIR:-/tmp}/majordomus-bench-scale);
#                one at a time: each is built, measured and removed before the next
#   --runs N     measured rounds per shape (default 15; 5 from 100,000 files, 3 at 300,000)
#   --keep       keep the large repositories (100,000 files or more, 100,000 trunk
#                commits): a later run reuses them instead of building them again
#   --only AXIS  one axis: files, branches, history or baselines (each with the
#                starting point it grows from)
#   --record     append the figures to bench/results.txt
#   MAJORDOMUS=/path/to/majordomus   this binary instead of a release build of this checkout
#                  (BENCH_BINARY_FROM=COMMIT: the commit it was built from, for the record)
#
# The axes, each from the same point (1,000 files, 10 branches, 100 trunk
# commits, one debt baseline of 100 entries), one count changed:
#   files      1,000 / 10,000 / 100,000 / 300,000
#   branches   10 / 1,000 / 10,000 (each with a reflog; loose refs, and 10,000 packed),
#              and 1,000 that each track a branch of the remote (2,000 config entries)
#   history    100 / 10,000 / 100,000 trunk commits
#   baselines  1 / 100 baselines of 100 entries
# Each repository (bench/make-large-repo.sh, no linked worktrees) gets a task
# branch with one commit its remote lacks and a task started on it: the state
# an agent stops in. The rounds alternate `check --json`, `git status
# --porcelain=v2 --branch -uall` and `hook stop` (after 2 unmeasured ones:
# the check measured is a repeated one, as at an agent's every stop) and,
# for what listing the branches costs git itself, `git for-each-ref
# refs/heads` (git status reads no branch but HEAD's), and for the floor of
# a reading of loose refs that trusts no directory's times, `find
# .git/refs/heads -size +1000k` (every ref file listed and stat'ed, nothing
# printed). At
# 300,000 files the peak memory of one check is read with /usr/bin/time -v.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/measure.sh"

runs=15
keep=0
only=""
record=0
dir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift ;;
        --keep) keep=1 ;;
        --only) only=$2; shift ;;
        --record) record=1 ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) dir=$1 ;;
    esac
    shift
done
dir=${dir:-${TMPDIR:-/tmp}/majordomus-bench-scale}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

bench_binary
go_hermetic
payload="$bench_home/stop.json"
refs_cmd="git for-each-ref refs/heads"
stat_cmd="find .git/refs/heads -size +1000k"

# shape AXIS LABEL FILES BRANCHES COMMITS BASELINES [packed] [UPSTREAMS]: build
# (or reuse), measure, remove. `packed`: the refs packed (`git pack-refs
# --all`), as git leaves them after a gc or a clone; otherwise every branch is
# a loose ref. UPSTREAMS (8 unless given): how many branches track a branch
# of the remote (two configuration entries each).
report=()
shape() {
    local axis=$1 label=$2 files=$3 branches=$4 commits=$5 baselines=$6 packed=${7:-} upstreams=${8:-8}
    # The first shape is every axis's starting point: measured for any one.
    [ -z "$only" ] || [[ ",$axis," == *",$only,"* ]] || return 0
    local repo="$dir/${axis%%,*}-$label" n=$runs t0 built
    [ "$files" -lt 100000 ] || [ "$runs" -le 5 ] || n=5
    [ "$files" -lt 300000 ] || [ "$runs" -le 3 ] || n=3
    t0=$EPOCHREALTIME
    if [ ! -f "$repo/.git/majordomus-bench" ]; then
        BENCH_FILES=$files BENCH_BRANCHES=$branches BENCH_WORKTREES=0 BENCH_BASELINES=$baselines \
            BENCH_BASELINE_ENTRIES=100 BENCH_MAIN_COMMITS=$commits BENCH_UPSTREAMS=$upstreams \
            "$here/make-large-repo.sh" --force "$repo" > "$bench_home/build.log"
        (
            cd "$repo"
            [ -z "$packed" ] || git pack-refs --all
            git checkout -q -b task/one
            "$bin" start "bench" >/dev/null
            echo "// edited" >> src/mod-000/sub-0/file-000001.rs
            git commit -qam "an unpushed change"
        )
    fi
    built=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
    printf '{"session_id":"bench","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done","background_tasks":[]}' \
        "$repo" > "$payload"
    cd "$repo"
    local l0 out c s h rss="" line
    l0=$(load1)
    out=$(alternate "$n" "check=$bin check --json" "status=$status_cmd" "stop=@$payload $bin hook stop" "refs=$refs_cmd" "stat=$stat_cmd")
    c=$(awk '$1 == "check" { print $2 }' <<< "$out")
    s=$(awk '$1 == "status" { print $2 }' <<< "$out")
    h=$(awk '$1 == "stop" { print $2 }' <<< "$out")
    r=$(awk '$1 == "refs" { print $2 }' <<< "$out")
    f=$(awk '$1 == "stat" { print $2 }' <<< "$out")
    if [ "$files" -ge 300000 ]; then
        /usr/bin/time -v "$bin" check --json > /dev/null 2> "$bench_home/time.txt" || true
        rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$bench_home/time.txt")
        rss=" check_peak_rss_mib=$rss"
    fi
    line="scale axis=$axis $label${packed:+ refs=packed} files=$files branches=$branches upstreams=$upstreams trunk_commits=$commits baselines=$baselines rounds=$n check_ms=$c status_ms=$s ratio=$(ratio "$c" "$s") hook_stop_ms=$h stop_vs_check=$(ratio "$h" "$c") for_each_ref_ms=$r stat_ref_files_ms=$f$rss load1=$l0..$(load1) built_or_reused_s=$built"
    echo "$line"
    report+=("$line")
    cd "$dir"
    if [ "$keep" -eq 0 ] || { [ "$files" -lt 100000 ] && [ "$commits" -lt 100000 ]; }; then
        rm -rf "$repo" "$repo.origin.git" "$repo.worktrees"
    fi
}

load_start=$(load1)
echo "== $(nproc) cores, load average $load_start; $bin ($bench_commit)"
shape files,branches,history,baselines 1k 1000 10 100 1
shape files 10k 10000 10 100 1
shape files 100k 100000 10 100 1
shape files 300k 300000 10 100 1
shape branches 1k 1000 1000 100 1
shape branches 10k 1000 10000 100 1
shape branches 10k-packed 1000 10000 100 1 packed
shape branches 1k-tracking 1000 1000 100 1 "" 1000
shape history 10k 1000 10 10000 1
shape history 100k 1000 10 100000 1
shape baselines 100 1000 10 100 100
echo "== (branches 10, history 100 and baselines 1 are the files 1k shape, measured with any axis)"
load_end=$(load1)
echo "== load average $load_start at the start, $load_end at the end"

if [ "$record" -eq 1 ] && [ "${#report[@]}" -gt 0 ]; then
    {
        echo "## $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $bench_commit — bench/scale.sh, alternating rounds, medians (ms)"
        echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), git $(git --version | sed 's/^git version //'); load average (1 min) $load_start at the start, $load_end at the end"
        printf '%s\n' "${report[@]}"
        echo
    } >> "$here/results.txt"
    echo "== appended to $here/results.txt"
fi
