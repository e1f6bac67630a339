#!/usr/bin/env bash
# bench/bulk.sh — `majordomus check` against `git status` after a task
# committed many files at once (a generated table, vendored code), pushed,
# and a colleague's commit fetched: every reading that asks what a tree
# holds at each changed path asks it thousands of times, in one directory.
#
#   bench/bulk.sh [--runs N] [--files N] [--record]
#
#   --runs N    measured rounds (default 15), after 2 unmeasured ones
#   --files N   files in the commit (default 4200: test/cases/535's shape)
#   --record    append the figures to bench/results.txt
#   MAJORDOMUS=/path/to/majordomus   this binary instead of a release build
#
# libgit2 keeps no tree larger than 4 KiB in its cache, so a directory of a
# few thousand files was read again for each of them: 13 s a check at
# 4,200 files before `trees::Lookup` (bench/README.md).
source "$(dirname "$0")/measure.sh"

runs=15 files=4200 record=
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --files) files=$2; shift 2 ;;
        --record) record=1; shift ;;
        *) echo "usage: bench/bulk.sh [--runs N] [--files N] [--record]" >&2; exit 2 ;;
    esac
done

bench_binary
go_hermetic
dir=$(mktemp -d "${TMPDIR:-/tmp}/majordomus-bench-bulk.XXXXXX")
trap 'rm -rf "$dir" "$bench_home"' EXIT
git init -q --bare -b main "$dir/origin.git"
git init -q -b main "$dir/repo"
cd "$dir/repo"
echo base > README.md
git add README.md && git commit -qm base
git remote add origin "$dir/origin.git"
git push -q -u origin main
"$bin" start "bulk" >/dev/null
mkdir -p src/gen
for i in $(seq 1 "$files"); do echo "row $i" > "src/gen/f$i.txt"; done
git add -A && git commit -qm "the generated table"
git push -q origin main
git clone -q "$dir/origin.git" "$dir/colleague"
(cd "$dir/colleague" && echo theirs > NOTES.md && git add NOTES.md && git commit -qm notes && git push -q origin main)
git fetch -q origin

load_start=$(load1)
out=$(alternate "$runs" "check=$bin check --json" "status=$status_cmd")
load_end=$(load1)
check=$(echo "$out" | awk '$1 == "check" { print $2 }')
status=$(echo "$out" | awk '$1 == "status" { print $2 }')
line="bulk files=$files check_ms=$check status_ms=$status ratio=$(ratio "$check" "$status")"
echo "== $(nproc) cores, load average $load_start; $bin ($bench_commit); $runs rounds"
echo "$line"
if [ -n "$record" ]; then
    {
        echo "## $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $bench_commit — bench/bulk.sh, $runs alternating rounds, medians (ms)"
        echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), git $(git --version | sed 's/^git version //'); load average (1 min) $load_start at the start, $load_end at the end"
        echo "$line"
        echo
    } >> "$bench_here/results.txt"
    echo "== appended to $bench_here/results.txt"
fi
