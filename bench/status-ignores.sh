#!/usr/bin/env bash
# The working-tree reading under ignore rules at several depths: `check`
# against `git status --porcelain=v2 --branch -uall` on a repository of
# 30,000 tracked files with ignore files at three depths, ignored build
# output and a few untracked files. Two majordomus binaries can be measured
# in the same run (each in its own identical copy of the repository), so
# that a change's before and after share the machine's load.
#
#   bench/status-ignores.sh DIR BIN [BIN2]     build under DIR (if missing), measure
#   ROUNDS=10 bench/status-ignores.sh ...
set -euo pipefail

dir=${1:?usage: status-ignores.sh DIR BIN [BIN2]}
shift
bins=("$@")
rounds=${ROUNDS:-7}

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME="$dir/home" XDG_CONFIG_HOME="$dir/home/.config"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
mkdir -p "$dir/home"

build() {
  local repo=$1
  [ -d "$repo/.git" ] && return
  git init -q -b main "$repo"
  git -C "$repo" config gc.auto 0
  python3 - "$repo" <<'EOF'
import os, sys
root = sys.argv[1]
def w(rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)
w(".gitignore", "/target/\n*.log\n*.tmp\n!keep.log\n")
for m in range(30):
    w(f"src/m{m:02}/.gitignore", "gen/\n*.o\n!important.o\n")
    for s in range(10):
        if s % 3 == 0:
            w(f"src/m{m:02}/s{s}/.gitignore", "*.bak\n/local-*\n")
        for f in range(100):
            w(f"src/m{m:02}/s{s}/file-{f:03}.rs", f"// {m} {s} {f}\n")
EOF
  git -C "$repo" add -A
  git -C "$repo" commit -q -m files
  python3 - "$repo" <<'EOF'
import os, sys
root = sys.argv[1]
def w(rel, text="x\n"):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)
for i in range(2000):
    w(f"target/debug/deps/obj-{i}.o")
for m in range(30):
    w(f"src/m{m:02}/gen/out.rs")
    w(f"src/m{m:02}/s1/run.log")
    w(f"src/m{m:02}/s3/old.bak")
    w(f"src/m{m:02}/s2/a.o")
for i in range(20):
    w(f"src/m{i:02}/s5/untracked-{i}.rs")
EOF
  sleep 1.1
  git -C "$repo" update-index --refresh -q >/dev/null || true
}

repos=()
for i in "${!bins[@]}"; do
  repos+=("$dir/repo-$i")
  build "$dir/repo-$i"
  (cd "$dir/repo-$i" && { "${bins[$i]}" start "bench" >/dev/null 2>&1 || true; })
done

# One command's wall and CPU (user + system) milliseconds, as "WALL CPU".
TIMEFORMAT='%R %U %S'
measure() {
  local t
  t=$({ time "$@" >/dev/null 2>&1 || true; } 2>&1 | tail -1)
  awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' <<<"$t"
}
declare -A wall cpu
for ((r = 0; r < rounds + 2; r++)); do
  for i in "${!bins[@]}"; do
    read -r cw cc < <(cd "${repos[$i]}" && measure "${bins[$i]}" check --json)
    read -r sw sc < <(measure git -C "${repos[$i]}" -c core.fsmonitor=false -c core.untrackedCache=false status --porcelain=v2 --branch -uall)
    if [ "$r" -ge 2 ]; then
      wall[check$i]+="$cw "; cpu[check$i]+="$cc "; wall[status$i]+="$sw "; cpu[status$i]+="$sc "
    fi
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "rounds=$rounds load=$(cut -d' ' -f1-3 /proc/loadavg) git=$(git --version | cut -d' ' -f3)"
for i in "${!bins[@]}"; do
  cw=$(median <<<"${wall[check$i]}"); sw=$(median <<<"${wall[status$i]}")
  cc=$(median <<<"${cpu[check$i]}"); sc=$(median <<<"${cpu[status$i]}")
  echo "bin=${bins[$i]} wall: check=${cw}ms status=${sw}ms ratio=$(ratio "$cw" "$sw")  cpu: check=${cc}ms status=${sc}ms ratio=$(ratio "$cc" "$sc")"
done
