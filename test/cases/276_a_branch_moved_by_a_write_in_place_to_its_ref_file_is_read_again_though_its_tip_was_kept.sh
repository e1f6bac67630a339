# check keeps what it read from each branch's ref file and, while the
# file's stamp (inode, size, change and modification times) is unchanged,
# does not open it again. A branch that existed at the start is moved by
# writing a commit id into its ref file in place (same inode, same size)
# and setting its modification time back: the file's change time, which no
# tool can set, moves with it, so the kept tip is not used and
# the task's commit on that branch is seen: pushed is owed, naming it.
source "$(dirname "$0")/../lib.sh" || exit 2

start_with_pushed_branch topic
# A ref file changed within two seconds of its reading is not kept: let
# topic's settle, then let check keep it.
sleep 2.2
expect_run 10 md check
# The cache's records end with the name's length (two bytes) and the name.
python3 -c 'import sys; sys.exit(b"\x10\x00refs/heads/topic" not in open(sys.argv[1], "rb").read())' \
  .ai/local/state/branches.cache || fail "topic's tip was not kept"

echo work > work.txt
git add work.txt
tree=$(git write-tree)
work=$(git commit-tree -p HEAD -m "on topic, by hand" "$tree")
git reset -q --hard HEAD
then=$(stat -c %y .git/refs/heads/topic)
printf '%s\n' "$work" > .git/refs/heads/topic
# Its modification time set back as it was: only the change time tells.
touch -m -d "$then" .git/refs/heads/topic
[ "$(stat -c %y .git/refs/heads/topic)" = "$then" ] || fail "the modification time was not set back"
[ "$(git rev-parse topic)" = "$work" ] || fail "topic did not move"
expect_open pushed "topic|${work:0:12}" "owed"
