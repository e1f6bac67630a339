# core.ignoreCase set since the start on a case-sensitive file system: a
# new README.MD beside the tracked readme.md is taken by git for the
# tracked file and never listed. The start's value governs: the new file
# counts, and the evidence names the setting.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
echo 'read me' > readme.md
commit_all "initial"
expect_run 0 md start "a"
echo 'a second file, told apart only by case' > README.MD
expect_open no-untracked "README.MD" "owed"
git config core.ignoreCase true
git status --porcelain | grep -q README.MD && fail "setup: git still lists the file"
expect_open no-untracked "README.MD.*core.ignoreCase was set to \"true\" since the start" "owed"
