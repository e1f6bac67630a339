# The task makes a fresh bare
# repository on this disk, adds it as a remote and pushes there with -u:
# pushed would pass although nothing left the machine. A remote added since
# the start is never evidence (README.md, "The questions"): named, and
# pushed stays owed.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
commit_all "initial"
with_origin
expect_run 0 md start "a feature"
git checkout -q -b feature
echo a > a.rs
commit_all "feature"
git init -q --bare "$case_root/stash.git"
git remote add backup "$case_root/stash.git"
git push -q -u backup feature
expect_open pushed "backup|origin" "owed"
expect_run 10 md check
