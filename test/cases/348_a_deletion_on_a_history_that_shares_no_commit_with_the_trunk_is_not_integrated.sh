# Whether the trunk holds HEAD's work is read from the paths HEAD changed
# since their merge base. With no merge base, those were the paths HEAD
# holds, read against the empty tree: a file HEAD deleted was no change at
# all, and a trunk that still has it "held" the work. Two ordinary ways
# to get there: a branch begun with `git checkout --orphan` holding the
# trunk's files less one, pushed; and a shallow clone (`git clone
# --depth=1`) whose trunk was fetched again with `--depth=1` after it
# moved on, so its history no longer meets HEAD's. The orphan branch is
# owed naming the deleted file (histories that share nothing: a path the
# trunk holds and HEAD does not is a change); the shallow clone is
# unknown, naming the cut, until `git fetch --unshallow` lets the merge
# base be read, and then owed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo old > legacy.txt
start_on_origin
expect_run 0 md todo add "drop legacy.txt"
expect_run 0 md todo done 1
git checkout -q --orphan cleanup
git rm -qf legacy.txt
git commit -qm "drop legacy.txt"
git push -q -u origin cleanup
expect_open integrated "legacy.txt" "owed"

# The deletion squash-merged into the trunk: held.
git checkout -q main
git rm -q legacy.txt
git commit -qm "drop legacy.txt (squashed)"
git push -q origin main
git checkout -q cleanup
expect_answer integrated "pass" "holds all"

# A shallow clone whose trunk moved on and was fetched again at depth 1.
cd "$case_root"
echo old > repo/legacy2.txt
(cd repo && git checkout -q main && git add legacy2.txt && git commit -qm legacy2 && git push -q origin main)
git clone -q --depth=1 "file://$case_root/origin.git" shallow
cd shallow
expect_run 0 md start "drop legacy2.txt"
expect_run 0 md todo add "drop legacy2.txt"
expect_run 0 md todo done 1
git rm -q legacy2.txt
git commit -qm "drop legacy2.txt"
(cd "$case_root/repo" && echo z > z.txt && git add z.txt && git commit -qm z && git push -q origin main)
git fetch -q --depth=1 origin
[ -z "$(git merge-base HEAD origin/main)" ] || fail "setup: HEAD and origin/main still share a commit"
expect_open integrated "shallow clone" "unknown"
expect_run 10 md check
git fetch -q --unshallow origin
expect_open integrated "legacy2.txt" "owed"
