# bench/measure.sh — sourced by bench/ordinary.sh and bench/scale.sh: the
# binary, a hermetic environment, timing in alternating rounds, medians.
#
#   bench_binary                 sets $bin: $MAJORDOMUS, else a release build of this checkout;
#                                BENCH_BINARY_FROM=COMMIT names what $MAJORDOMUS was built from
#   go_hermetic                  from then on: no GIT_* variable, no global or system
#                                git config, a throwaway HOME, fixed identities
#   time_ms [@FILE] CMD...       runs CMD (output discarded, FILE on stdin); prints its
#                                wall time in ms; exit 0 or 10 accepted, anything else fatal
#   alternate N NAME=CMD ...     N rounds after 2 unmeasured ones, the commands one
#                                after the other in each round; prints "NAME median_ms"
#                                per command (median of the N wall times)
#   ratio A B                    A / B, two decimals
#   load1                        the 1-minute load average
#   $status_cmd                  the git status measured against: porcelain v2, branch,
#                                every untracked file, no fsmonitor, no untracked cache
set -euo pipefail

bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench_root=$(cd "$bench_here/.." && pwd)

bench_binary() {
    if [ -n "${MAJORDOMUS:-}" ]; then
        bin=$MAJORDOMUS
    else
        (cd "$bench_root" && cargo build --release -q -p majordomus-cli)
        bin=${CARGO_TARGET_DIR:-$bench_root/target}/release/majordomus
        case "$bin" in /*) ;; *) bin=$bench_root/$bin ;; esac
    fi
    [ -x "$bin" ] || { echo "no majordomus binary at $bin" >&2; exit 1; }
    bench_commit=$(git -C "$bench_root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    [ -z "${MAJORDOMUS:-}" ] || bench_commit="$bench_commit+binary-from-MAJORDOMUS"
    # The commit the binary was built from, when the caller knows it.
    [ -z "${BENCH_BINARY_FROM:-}" ] || bench_commit="binary built from $BENCH_BINARY_FROM"
}

bench_home=$(mktemp -d "${TMPDIR:-/tmp}/majordomus-bench-home.XXXXXX")
trap 'rm -rf "$bench_home"' EXIT
# Hermetic from here on, for every command the script runs (no wrapper
# process is timed): no GIT_* variable, no global or system git config, a
# throwaway HOME.
go_hermetic() {
    while IFS= read -r v; do unset "$v"; done < <(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
    export HOME="$bench_home" XDG_CONFIG_HOME="$bench_home/.config"
    export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0 LC_ALL=C
    export GIT_AUTHOR_NAME="Bench Author" GIT_AUTHOR_EMAIL=author@bench.invalid
    export GIT_COMMITTER_NAME="Bench Committer" GIT_COMMITTER_EMAIL=committer@bench.invalid
}

status_cmd="git -c core.fsmonitor=false -c core.untrackedCache=false status --porcelain=v2 --branch -uall"

time_ms() { # time_ms [@FILE] CMD...: @FILE is given on stdin
    local input=/dev/null t0 t1 rc
    case "$1" in @*) input=${1#@}; shift ;; esac
    t0=$EPOCHREALTIME
    set +e
    "$@" >/dev/null 2>"$bench_home/last.err" <"$input"
    rc=$?
    set -e
    t1=$EPOCHREALTIME
    case $rc in
        0 | 10) ;;
        *) echo "$* exited $rc:" >&2; cat "$bench_home/last.err" >&2; exit 1 ;;
    esac
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", (b - a) * 1000 }'
}

median() { # median of the numbers on stdin
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f\n", m }'
}

# alternate N NAME=CMD... : CMD is split on spaces (no quoting); a first
# word @FILE gives FILE on its stdin.
alternate() {
    local n=$1
    shift
    local names=() cmds=() spec i k
    for spec in "$@"; do names+=("${spec%%=*}"); cmds+=("${spec#*=}"); done
    for k in "${!names[@]}"; do : > "$bench_home/${names[$k]}.ms"; done
    for ((i = 0; i < n + 2; i++)); do
        for k in "${!names[@]}"; do
            local ms words
            read -ra words <<< "${cmds[$k]}"
            ms=$(time_ms "${words[@]}")
            [ "$i" -lt 2 ] || echo "$ms" >> "$bench_home/${names[$k]}.ms"
        done
    done
    for k in "${!names[@]}"; do echo "${names[$k]} $(median < "$bench_home/${names[$k]}.ms")"; done
}

load1() { cut -d' ' -f1 /proc/loadavg; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f\n", a / b; else print "-" }'; }
