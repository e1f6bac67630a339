#!/usr/bin/env bash
# README, "Whose work it is": a path where HEAD holds what a newest commit a
# fetch brought holds is not the task's change. The task commits an edit of
# src/lib.rs and its revert (its work undone: measurable owed), then pulls
# (`--rebase`) a colleague's edit of another line of the same file.
# measurable passed ("HEAD holds 2 commits made since the start (and 1
# commit a fetch brought ...)"): HEAD's src/lib.rs differed from the
# start's at a path the task's commits touched, though it held the
# colleague's content exactly. measurable needs a path the task's own
# commits changed where HEAD holds neither the start's content nor any
# newest arrived commit's; the task's fix in a file a colleague also
# edited, pulled with a merge, still passes.
source "$(dirname "$0")/../lib.sh" || exit 2

unit_gate_policy
printf 'fn a() {}\n\n\n\nfn b() {}\n\n\n\nfn c() {}\n\n\n\n// end\n' > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"
sed -i 's/fn a() {}/fn a() { fixed }/' src/lib.rs
commit_all "fix a"
git revert --no-edit HEAD >/dev/null
expect_open measurable "changes no path from the start commit's"
colleague "b returns 1" 'sed -i "s/fn b() {}/fn b() { 1 }/" src/lib.rs'
git pull -q --rebase
expect_open measurable "at every path they changed its tree holds what the start commit or a commit a fetch brought holds"
# Pulled with a merge, the same.
colleague "c returns 2" 'sed -i "s/fn c() {}/fn c() { 2 }/" src/lib.rs'
git pull -q --no-rebase --no-edit >/dev/null
expect_open measurable "a commit a fetch brought holds"

# The task's fix, in the file the colleague edits again, merged: the task's.
sed -i 's/fn a() {}/fn a() { fixed }/' src/lib.rs
commit_all "fix a again"
colleague "b returns 3" 'sed -i "s/fn b() { 1 }/fn b() { 3 }/" src/lib.rs'
git pull -q --no-rebase --no-edit >/dev/null
git push -q origin main
expect_answer measurable "pass" "HEAD holds 5 commits made since the start \(and 3 commits a fetch brought"
