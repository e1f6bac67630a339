# Paths are bytes: a file named in Latin-1 (not UTF-8) is a file like any
# other. Untracked, it makes no-untracked owed (not unknown), named as git
# quotes it; edited while tracked, committed owed; committed, both pass.
# One that was there at the start with the same content is inherited, and
# the task record keeps its name losslessly.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
mkdir -p src
echo 'fn a() {}' > src/lib.rs
python3 -c 'open(b"src/tracked-\xfe.txt", "w").write("one\n")'
commit_all "initial"
python3 -c 'open(b"old-\xe9.txt", "w").write("there at the start\n")'
expect_run 0 md start "a task among names that are not UTF-8"
expect_contains "1 untracked"
[ "$(json_get .ai/local/state/task.json 'd["snapshot"]["untracked"][0]["path"]')" = '"old-\351.txt"' ] ||
  fail "the task record does not keep the name as git quotes it"

mkdir -p tests
python3 -c 'open(b"tests/caf\xe9.rs", "w").write("#[test] fn works() {}\n")'
expect_open no-untracked '"tests/caf\\351\.rs"' "owed"
judge_answer no-untracked "owed" 'not counted: "old-\\351\.txt"'
python3 -c 'open(b"src/tracked-\xfe.txt", "w").write("two\n")'
expect_open committed '"src/tracked-\\376\.txt"' "owed"

git add -A
git reset -q -- "$(python3 -c 'import sys; sys.stdout.buffer.write(b"old-\xe9.txt")')"
git commit -q -m "the work, in files named in Latin-1"
expect_answer committed "pass" "."
judge_answer no-untracked "pass" 'old-\\351\.txt'
expect_run 0 md check --json
