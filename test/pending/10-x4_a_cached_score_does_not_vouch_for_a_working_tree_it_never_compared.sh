# Not in issue 10 (a new class; judgement, see README.md): `score --cached`
# exits 0 with "10/10" and nothing said after an edit to a tracked file,
# because only HEAD, the index and the refs are compared. A cached 10 says
# the working tree was not compared, or is not a 10 at all.
source "$(dirname "$0")/expect_open.sh"
source "$(dirname "$0")/../lib.sh"

exempt_forge
echo base > README
commit_all "initial"
expect_run 0 md start "a"
mkdir -p tests && echo "fn a() {}" > tests/a.rs
commit_all "a"
expect_run 0 md score
expect_run 0 md score --cached
echo "an edit after the score" >> README
set +e
out=$(md score --cached 2>&1)
code=$?
set -e
[ "$code" -ne 0 ] || case "$out" in *"working tree"*) ;; *) fail "a cached 10 vouched for an edited working tree (exit 0, no word of it)" ;; esac
