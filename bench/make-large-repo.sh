#!/usr/bin/env bash
# bench/make-large-repo.sh — build a large synthetic git repository for the
# `majordomus check` vs `git status` benchmark.
#
#   bench/make-large-repo.sh [--force] [--worktrees-no-checkout] DIR
#
# Builds, deterministically (fixed identities and dates, hermetic git):
#   DIR/                 the repository: 100,000 tracked files on `main`
#                        (101 commits), 20 debt baselines of 1,000 entries
#                        (.ai/repo/debt-NN-baseline.txt), checked out, index refreshed
#   refs                 2,000 branches topic/bNNNN, each one commit ahead of
#                        some main commit, each with a two-entry reflog
#                        (logs/refs/heads/topic/bNNNN); main with its reflog
#   DIR.worktrees/wt-NN  20 linked worktrees, each on its own branch wt/NN
#                        (full checkouts unless --worktrees-no-checkout)
#   DIR.origin.git       a bare remote: main pushed with `push -u`,
#                        origin/HEAD -> origin/main, and 8 topic branches
#                        pushed with upstream tracking
#
# The worktrees and the remote are siblings of DIR, not inside it, so that
# `git status -uall` in DIR does not see them as untracked directories.
#
# Counts can be overridden for quick trials (the benchmark figures use the
# defaults): BENCH_FILES, BENCH_BRANCHES, BENCH_WORKTREES, BENCH_BASELINES,
# BENCH_BASELINE_ENTRIES, BENCH_MAIN_COMMITS, BENCH_UPSTREAMS.
#
# DIR must not exist; with --force, a DIR previously built by this script (it
# carries the marker $GIT_DIR/majordomus-bench) is removed and rebuilt. A DIR
# this script did not build is never deleted.
set -euo pipefail

usage() {
    echo "usage: $0 [--force] [--worktrees-no-checkout] DIR" >&2
    exit 2
}

force=0
wt_checkout=1
dir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --force) force=1 ;;
        --worktrees-no-checkout) wt_checkout=0 ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        -*) usage ;;
        *) [ -z "$dir" ] || usage; dir="$1" ;;
    esac
    shift
done
[ -n "$dir" ] || usage

FILES=${BENCH_FILES:-100000}
BRANCHES=${BENCH_BRANCHES:-2000}
WORKTREES=${BENCH_WORKTREES:-20}
BASELINES=${BENCH_BASELINES:-20}
BASELINE_ENTRIES=${BENCH_BASELINE_ENTRIES:-1000}
MAIN_COMMITS=${BENCH_MAIN_COMMITS:-100}     # commits on main after the root import
UPSTREAMS=${BENCH_UPSTREAMS:-8}             # topic branches pushed with upstream tracking

# ---- hermetic git ---------------------------------------------------------
# No inherited GIT_* variable, no global or system config, a throwaway HOME.
while IFS= read -r v; do unset "$v"; done < <(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
scratch_home=$(mktemp -d "${TMPDIR:-/tmp}/majordomus-bench-home.XXXXXX")
trap 'rm -rf "$scratch_home"' EXIT
export HOME="$scratch_home" XDG_CONFIG_HOME="$scratch_home/.config"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_TERMINAL_PROMPT=0 LC_ALL=C TZ=UTC
export GIT_AUTHOR_NAME="Bench Author" GIT_AUTHOR_EMAIL="author@bench.invalid"
export GIT_COMMITTER_NAME="Bench Committer" GIT_COMMITTER_EMAIL="committer@bench.invalid"
# Every object and reflog entry carries this date: the object ids are the same on every build.
EPOCH=1700000000
export GIT_AUTHOR_DATE="$EPOCH +0000" GIT_COMMITTER_DATE="$EPOCH +0000"

# ---- the target -----------------------------------------------------------
mkdir -p "$(dirname "$dir")"
dir="$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")"
origin="$dir.origin.git"
wtroot="$dir.worktrees"
case "$dir" in
    /|/tmp|/home|/root|/usr|/work|"$HOME") echo "refusing to build in $dir" >&2; exit 2 ;;
esac

if [ -e "$dir" ] || [ -e "$origin" ] || [ -e "$wtroot" ]; then
    if [ "$force" -ne 1 ]; then
        echo "$dir (or $origin, $wtroot) exists; pass --force to rebuild it" >&2
        exit 1
    fi
    if [ -e "$dir" ] && [ ! -f "$dir/.git/majordomus-bench" ]; then
        echo "$dir exists and was not built by this script (no .git/majordomus-bench); not deleting it" >&2
        exit 1
    fi
    for p in "$origin" "$wtroot"; do
        if [ -e "$p" ] && [ ! -f "$p/majordomus-bench" ] && [ ! -f "$p/.majordomus-bench" ]; then
            echo "$p exists and was not built by this script; not deleting it" >&2
            exit 1
        fi
    done
    rm -rf -- "$dir" "$origin" "$wtroot"
fi

now_ns() { date +%s%N; }
t_start=$(now_ns)
t_phase=$t_start
phase() { # phase NAME: print the time the previous phase took
    local t; t=$(now_ns)
    printf '  %-34s %7.2f s\n' "$1" "$(awk "BEGIN{print ($t - $t_phase) / 1e9}")"
    t_phase=$t
}

echo "building $dir ($FILES files, $BRANCHES branches, $WORKTREES worktrees, $BASELINES baselines x $BASELINE_ENTRIES entries)"

git init -q -b main "$dir"
cd "$dir"
echo "built by bench/make-large-repo.sh" > .git/majordomus-bench
git config core.logAllRefUpdates true
git config gc.auto 0                 # no automatic gc while building or measuring
git config maintenance.auto false
phase "init"

# ---- history through fast-import -----------------------------------------
# Layout: src/mod-XXX/sub-Y/file-NNNNNN.rs, 100 files a directory, 1,100 directories.
# Marks: :1 the root import; :(1+i) main commit i (i = 1 adds the baselines);
# :(1000001+j) the commit of topic branch j. Commits go to scratch refs under
# refs/bench/ (fast-import writes no reflogs); the branches are made afterwards
# with update-ref so that every one of them has a reflog.
marks="$dir/.git/bench-marks"
python3 - "$FILES" "$BRANCHES" "$BASELINES" "$BASELINE_ENTRIES" "$MAIN_COMMITS" "$EPOCH" <<'PY' \
    | git fast-import --quiet --export-marks="$marks"
import sys
files, branches, baselines, entries, main_commits, epoch = map(int, sys.argv[1:])
w = sys.stdout.buffer.write

def path(n):
    return "src/mod-%03d/sub-%d/file-%06d.rs" % (n // 1000, (n // 100) % 10, n)

def content(n, rev=0):
    return ("// synthetic file %06d, revision %d\npub fn f%06d() -> u64 {\n    %d\n}\n"
            % (n, rev, n, n + rev)).encode()

def inline(p, b):
    w(b"M 100644 inline %s\ndata %d\n" % (p.encode(), len(b)))
    w(b)
    w(b"\n")

def commit(ref, mark, t, msg, parent=None):
    w(b"commit %s\nmark :%d\n" % (ref.encode(), mark))
    w(b"author Bench Author <author@bench.invalid> %d +0000\n" % t)
    w(b"committer Bench Committer <committer@bench.invalid> %d +0000\n" % t)
    m = msg.encode()
    w(b"data %d\n%s\n" % (len(m), m))
    if parent is not None:
        w(b"from :%d\n" % parent)

# the root: every file
commit("refs/bench/main", 1, epoch, "Import %d synthetic files" % files)
inline("README.md", b"Synthetic repository for the majordomus benchmark.\n")
inline(".gitignore", b"/target/\n*.log\n")
for n in range(files):
    inline(path(n), content(n))

# main commit 1: the debt baselines
commit("refs/bench/main", 2, epoch + 60, "Add %d debt baselines" % baselines, 1)
for b in range(baselines):
    lines = ["# debt baseline %02d: one entry a line" % b, ""]
    for e in range(entries):
        n = (b * entries + e) * 7 % files
        lines.append("%s:%d: lint-%02d allowed here" % (path(n), 1 + e % 4, b))
    inline(".ai/repo/debt-%02d-baseline.txt" % b, ("\n".join(lines) + "\n").encode())

# main commits 2..main_commits: one file each
for i in range(2, main_commits + 1):
    commit("refs/bench/main", 1 + i, epoch + 60 * i, "Change file %d" % (i * 7919 % files), i)
    n = i * 7919 % files
    inline(path(n), content(n, i))

# topic branches: one commit each, on some main commit after the baselines
for j in range(branches):
    base = 2 + j % main_commits
    n = (j * 104729 + 13) % files
    commit("refs/bench/topic", 1000001 + j, epoch + 86400 + j, "Topic %04d: change file %d" % (j, n), base)
    inline(path(n), content(n, 1000 + j))
w(b"done\n")
PY
phase "fast-import history"

mark() { sed -n "s/^:$1 //p" "$marks"; }
main_tip=$(mark $((1 + MAIN_COMMITS)))

# main, with a reflog; then the scratch refs go
git update-ref -m "commit (initial): Import $FILES synthetic files" refs/heads/main "$(mark 1)"
git update-ref -m "merge: Fast-forward" refs/heads/main "$main_tip"
git update-ref -d refs/bench/main
git update-ref -d refs/bench/topic

# 2,000 branches, two reflog entries each: created at their base on main, then
# moved to their own commit. Two update-ref transactions, not 4,000 processes.
python3 - "$marks" "$BRANCHES" "$MAIN_COMMITS" .git/bench-create .git/bench-advance <<'PY'
import sys
marks_file, branches, main_commits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
m = dict(line.split() for line in open(marks_file))
with open(sys.argv[4], "w") as create, open(sys.argv[5], "w") as advance:
    for j in range(branches):
        ref = "refs/heads/topic/b%04d" % j
        base = m[":%d" % (2 + j % main_commits)]   # the same base as in the stream
        tip = m[":%d" % (1000001 + j)]
        create.write("create %s %s\n" % (ref, base))
        advance.write("update %s %s %s\n" % (ref, tip, base))
PY
git update-ref -m "branch: Created from main" --stdin < .git/bench-create
GIT_COMMITTER_DATE="$((EPOCH + 86400)) +0000" \
    git update-ref -m "commit: topic work" --stdin < .git/bench-advance
rm -f .git/bench-create .git/bench-advance
phase "refs and reflogs"

# ---- the working tree and the index ---------------------------------------
git read-tree -u --reset HEAD
# Entries written in the same second as the index are "racily clean" and would
# be re-hashed by the first status; wait that second out and refresh once, so
# every measured run starts from a fully refreshed index.
sleep 1
git update-index -q --refresh
phase "checkout main ($FILES files)"

# ---- the bare remote with upstream tracking --------------------------------
git init -q --bare -b main "$origin"
echo "built by bench/make-large-repo.sh" > "$origin/majordomus-bench"
git remote add origin "$origin"
git push -q -u origin main
git remote set-head origin main
# One push for all of them (`-u` writes each one's branch.<name>.remote and
# .merge, as a push or a checkout of a remote branch does).
for ((j = 0; j < UPSTREAMS && j < BRANCHES; j++)); do
    echo "topic/b$(printf %04d "$j")"
done | xargs -r git push -q -u origin
phase "bare remote, push -u, $UPSTREAMS upstreams"

# ---- linked worktrees ------------------------------------------------------
mkdir -p "$wtroot"
echo "built by bench/make-large-repo.sh" > "$wtroot/.majordomus-bench"
wt_flags=()
[ "$wt_checkout" -eq 1 ] || wt_flags=(--no-checkout)
for ((k = 0; k < WORKTREES; k++)); do
    name=$(printf %02d "$k")
    git worktree add -q "${wt_flags[@]}" -b "wt/$name" "$wtroot/wt-$name" main
done
if [ "$wt_checkout" -eq 1 ]; then
    phase "$WORKTREES linked worktrees (full checkouts)"
else
    phase "$WORKTREES linked worktrees (--no-checkout)"
fi

# ---- a summary -------------------------------------------------------------
t_end=$(now_ns)
build_s=$(awk "BEGIN{print ($t_end - $t_start) / 1e9}")
tracked=$(git ls-files | wc -l)
branches=$(git for-each-ref refs/heads | wc -l)
reflogs=$(find .git/logs/refs/heads -type f | wc -l)
worktrees=$(($(git worktree list | wc -l) - 1))
baseline_entries=$(cat .ai/repo/*-baseline.txt | grep -cv -e '^#' -e '^$' || true)
baselines=$(ls .ai/repo/*-baseline.txt | wc -l)
size_repo=$(du -sh "$dir" | cut -f1)
size_git=$(du -sh "$dir/.git" | cut -f1)
size_origin=$(du -sh "$origin" | cut -f1)
size_wt=$(du -sh "$wtroot" | cut -f1)
printf 'built %s in %.1f s\n' "$dir" "$build_s"
echo "  tracked files:       $tracked"
echo "  local branches:      $branches (reflog files under logs/refs/heads: $reflogs)"
echo "  linked worktrees:    $worktrees in $wtroot ($size_wt)"
echo "  baselines:           $baselines files, $baseline_entries entries"
echo "  upstream of main:    $(git rev-parse --abbrev-ref main@{upstream}); origin/HEAD -> $(git symbolic-ref --short refs/remotes/origin/HEAD)"
echo "  size:                repository $size_repo (of which .git $size_git), remote $size_origin"
echo "  HEAD:                $(git rev-parse HEAD)"
printf 'make-large-repo: dir=%s build_seconds=%.1f files=%s branches=%s reflogs=%s worktrees=%s worktree_checkout=%s baselines=%s baseline_entries=%s size_repo=%s size_git=%s size_worktrees=%s\n' \
    "$dir" "$build_s" "$tracked" "$branches" "$reflogs" "$worktrees" "$wt_checkout" "$baselines" "$baseline_entries" "$size_repo" "$size_git" "$size_wt"
