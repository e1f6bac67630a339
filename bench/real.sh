#!/usr/bin/env bash
# bench/real.sh — `majordomus check` against `git status` on a real project,
# in the three states an agent stops in.
#
#   bench/real.sh [--runs N] [--record] [--keep] [--all-racy] SOURCE [DIR]
#
#   SOURCE     a clone of the project, or a bare or mirror repository of it:
#              cloned (objects shared, `--shared`) into DIR, never written to
#   DIR        where the clone and its bare remote go
#              (default ${TMPDIR:-/tmp}/majordomus-bench-real/NAME, removed at the end unless --keep)
#   --runs N   measured rounds per state (default 15), after 2 unmeasured ones
#   --record   append the figures to bench/results.txt
#   --all-racy before the start, the index's time set to the second of the newest
#              file the clone wrote: every file written in that second is racily
#              clean, as after a checkout written within one second (a small
#              project's clone); the figures say how many (racy_at_start)
#   MAJORDOMUS=/path/to/majordomus   this binary instead of a release build of this checkout
#                  (BENCH_BINARY_FROM=COMMIT: the commit it was built from, for the record)
#
# The clone's origin is a bare clone of it beside it (its default branch and
# every branch SOURCE holds, so the remote-tracking refs are the project's
# branches), a task is started on the default branch, and then, one after
# the other in the same clone:
#   clean      nothing changed since the start
#   edited     one tracked file edited (the middle one of `git ls-files` that
#              is a regular file) and not committed
#   unpushed   that edit committed on a task branch made from the default
#              branch: one commit the remote lacks (the squash-merge search runs)
# In each, alternating rounds of `check --json` and `git status
# --porcelain=v2 --branch -uall` (hermetic, warm caches; bench/measure.sh).
# Prints the project's size, the medians, the ratios and the load average
# at the start and the end of each state.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/measure.sh"

runs=15
record=0
keep=0
all_racy=0
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift ;;
        --record) record=1 ;;
        --keep) keep=1 ;;
        --all-racy) all_racy=1 ;;
        -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) args+=("$1") ;;
    esac
    shift
done
[ "${#args[@]}" -ge 1 ] || { echo "usage: bench/real.sh [--runs N] [--record] [--keep] [--all-racy] SOURCE [DIR]" >&2; exit 2; }
source_repo=$(cd "${args[0]}" && pwd)
name=$(basename "$source_repo")
case "$name" in repo | *.git) name=$(basename "$(dirname "$source_repo")")${name%repo} ;; esac
name=${name%.git}
dir=${args[1]:-${TMPDIR:-/tmp}/majordomus-bench-real/$name}

bench_binary
go_hermetic

rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ "$keep" -eq 1 ] || trap 'rm -rf "$dir" "$bench_home"' EXIT
work="$dir/work"
echo "== cloning $source_repo into $work"
git clone -q --shared "$source_repo" "$work"
cd "$work"
trunk=$(git symbolic-ref --short HEAD)
# The remote: the default branch and every branch the source holds.
git clone -q --bare --shared "$work" "$dir/remote.git"
git -C "$dir/remote.git" fetch -q "$work" '+refs/remotes/origin/*:refs/heads/*' '^refs/remotes/origin/HEAD'
git -C "$dir/remote.git" symbolic-ref HEAD "refs/heads/$trunk"
git remote set-url origin "$dir/remote.git"
git fetch -q --prune origin
git remote set-head origin "$trunk" > /dev/null
git branch -q --set-upstream-to "origin/$trunk"

files=$(git ls-files | wc -l | tr -d ' ')
commits=$(git rev-list --count HEAD)
branches=$(git for-each-ref refs/heads refs/remotes | wc -l | tr -d ' ')
tags=$(git for-each-ref refs/tags | wc -l | tr -d ' ')
head=$(git rev-parse --short=12 HEAD)
edited=$(git ls-files -s | awk '$1 == "100644" || $1 == "100755" { sub(/^[^\t]*\t/, ""); print }' | awk '{ f[NR] = $0 } END { print f[int((NR + 1) / 2)] }')
if [ "$all_racy" -eq 1 ]; then
    newest=$(git ls-files -z | xargs -0 stat -c %Y 2> /dev/null | sort -n | tail -1)
    touch -d "@$newest.999999999" .git/index
fi
# Entries racily clean at the start: a file not older, to the second, than
# the index is read by content (git's rule), and for a task's whole life
# unless the start's stamps vouch for it (majordomus-readings' status/verified.rs).
index_second=$(stat -c %Y .git/index)
racy=$(git ls-files -z | xargs -0 stat -c %Y 2> /dev/null | awk -v i="$index_second" '$1 >= i { n++ } END { print n + 0 }')
shape="project=$name head=$head files=$files commits=$commits branches_and_remote_refs=$branches tags=$tags racy_at_start=$racy"
echo "== $shape; the edited file: $edited"

"$bin" start "bench: a real project" > /dev/null

echo "== $(nproc) cores; $bin ($bench_commit); $runs rounds"
report=()
for state in clean edited unpushed; do
    case "$state" in
        edited) echo "// edited by bench/real.sh" >> "$edited" ;;
        unpushed)
            git checkout -q -b bench/task
            git commit -q -am "bench: an unpushed change"
            ;;
    esac
    load_start=$(load1)
    out=$(alternate "$runs" "check=$bin check --json" "status=$status_cmd")
    load_end=$(load1)
    c=$(awk '$1 == "check" { print $2 }' <<< "$out")
    s=$(awk '$1 == "status" { print $2 }' <<< "$out")
    line="real $shape state=$state check_ms=$c status_ms=$s ratio=$(ratio "$c" "$s") load1=$load_start..$load_end"
    echo "$line"
    report+=("$line")
done

if [ "$record" -eq 1 ]; then
    {
        echo "## $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $bench_commit — bench/real.sh, $runs alternating rounds, medians (ms)"
        echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), git $(git --version | sed 's/^git version //'); source $source_repo"
        printf '%s\n' "${report[@]}"
        echo
    } >> "$here/results.txt"
    echo "== appended to $here/results.txt"
fi
