# A FIFO planted where libgit2 opens one of git's files (`rm .git/index;
# mkfifo .git/index`, or config, packed-refs, shallow, the current
# branch's ref file) made check, finish and start wait forever for a
# writer: libgit2 opens git's files blocking. The rule: reading a
# repository never hangs. The files the open reaches are looked at first,
# and one that is not a regular file makes the repository unreadable,
# naming it (every question unknown, exit 10; finish and start refuse,
# exit 2); a reading past that list that never returns (a FIFO at an
# upstream's ref file) ends the command at the watch's bound, naming it.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README; mkdir -p src; echo a > src/a.txt
commit_all initial
with_origin; exempt_forge
commit_all pol; git push -q
md start "t" >/dev/null
echo more >> src/a.txt
git_dir=$(git rev-parse --git-dir)

# within WHAT CMD...: runs CMD with a time limit; fails if it ran out.
within() {
  local what=$1
  shift
  set +e
  out=$(timeout 20 "$@" 2>&1)
  got=$?
  set -e
  [ "$got" -ne 124 ] || fail "'$*' hung on a FIFO at $what"
}

# as_fifo PATH: PATH (moved aside) replaced by a FIFO; undo_fifo PATH puts it back.
as_fifo() {
  if [ -e "$1" ]; then mv "$1" "$1.aside"; fi
  mkfifo "$1"
}
undo_fifo() {
  rm "$1"
  if [ -e "$1.aside" ]; then mv "$1.aside" "$1"; fi
}

git pack-refs --all
branch=$(git symbolic-ref HEAD)
for file in index config packed-refs shallow "$branch"; do
  as_fifo "$git_dir/$file"
  within "$file" "$MAJORDOMUS" check
  [ "$got" -eq 10 ] || fail "check exited $got with a FIFO at $file"
  expect_contains "$file is a FIFO"
  within "$file" "$MAJORDOMUS" check --json
  cp .ai/local/state/gates.completion.json "$case_root/doc.json"
  judge_answer committed unknown "FIFO"
  within "$file" "$MAJORDOMUS" finish --outcome failed
  [ "$got" -eq 2 ] || fail "finish exited $got with a FIFO at $file"
  expect_contains "FIFO"
  undo_fifo "$git_dir/$file"
done

# Past the list: the upstream's ref file, loose, read by libgit2 when
# the readings ask for it. The watch ends check at its bound, naming it.
git update-ref refs/remotes/origin/main "$(git rev-parse refs/remotes/origin/main)"
as_fifo "$git_dir/refs/remotes/origin/main"
within "refs/remotes/origin/main" env MAJORDOMUS_WATCH_SECONDS=2 "$MAJORDOMUS" check
[ "$got" -eq 10 ] || fail "check exited $got with a FIFO at the upstream's ref"
expect_contains "did not return within 2 s"
expect_contains "refs/remotes/origin/main"
undo_fifo "$git_dir/refs/remotes/origin/main"

# The honest flow: every file back and the work committed, check reads
# the repository and the question passes.
commit_all "more"
within "nothing" "$MAJORDOMUS" check --json
cp .ai/local/state/gates.completion.json "$case_root/doc.json"
judge_answer committed pass "."
