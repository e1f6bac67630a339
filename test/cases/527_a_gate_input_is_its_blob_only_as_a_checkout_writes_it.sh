#!/usr/bin/env bash
# gates-green: 522 reads each clean tracked input from disk and takes it
# for its blob where it is the blob git records. What counts as the
# recorded blob is what checking the blob out would write there (line ends
# the checkout writes, `ident` expanded, `working-tree-encoding` applied),
# not merely content that cleans to the blob. Two paths:
#  - a gate input kept as UTF-16 (`working-tree-encoding=UTF-16LE`, the
#    status reading converts it, case 474), committed and clean: it is its
#    blob, and the gate's pass is the commit's (before: `gate run` said it
#    was not the blob git records, and gates-green was owed for good);
#  - `* text=auto` with no eol on Linux: the task adds a CRLF fixture,
#    `git add` stores it LF, `git status` is clean, the gate passes over
#    the CRLF disk file while a clone of the pushed commit gets LF and
#    fails: gates-green is owed, naming the fixture (before: a pass). Kept
#    CRLF by the attributes (`eol=crlf`, a checkout writes it CRLF), the
#    same run passes. A lone CR under text=auto is binary to git, stored
#    as it is, and is its blob.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests/fixtures
# The gate reads the UTF-16 file, and the CRLF fixture where there is one.
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q fixed src/lib.rs && iconv -f UTF-16LE -t UTF-8 src/msg.txt | grep -q hello && { [ ! -e tests/fixtures/crlf.txt ] || od -c tests/fixtures/crlf.txt | grep -q '\\\\r'; }"
inputs = ["src/**", "tests/**"]
TOML
exempt_forge
printf '* text=auto\nsrc/*.txt text working-tree-encoding=UTF-16LE eol=lf\n' > .gitattributes
echo "fn a() {}" > src/lib.rs
printf 'hello\n' | iconv -f UTF-8 -t UTF-16LE > src/msg.txt
commit_all "initial"
with_origin
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git status is not clean"
git show HEAD:src/msg.txt | grep -q hello || fail "setup: the blob is not UTF-8"
expect_run 0 md start "fix a"

# The UTF-16 input, untouched and clean, with a fix beside it and a fixture
# holding a lone CR (binary to text=auto, stored as it is).
echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){ fixed() }" > tests/a.rs
printf 'a\rb\n' > tests/fixtures/lone.txt
commit_all "fix a"
git push -q origin main
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git status is not clean"
[ "$(git show HEAD:tests/fixtures/lone.txt | od -c | grep -c '\\r')" = 1 ] || fail "setup: the lone CR was not kept"
expect_run 0 md gate run unit
expect_not_contains "is not the blob git records"
expect_answer gates-green pass "unit passed"

# A CRLF fixture under text=auto: the commit holds LF, and a checkout of it
# writes LF, so the pass over the disk is not the commit's.
echo "fn a() { fixed; crlf }" > src/lib.rs
printf 'a\r\nb\r\n' > tests/fixtures/crlf.txt
commit_all "parse CRLF, with a CRLF fixture"
git push -q origin main
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git status is not clean"
d=$(mktemp -d); git clone -q "$case_root/origin.git" "$d/c"
od -c "$d/c/tests/fixtures/crlf.txt" | grep -q '\\r' && fail "setup: a clone of the commit holds CRLF"
expect_run 0 md gate run unit
expect_contains "tests/fixtures/crlf.txt is not the blob git records"
expect_open gates-green "other content than the blob git records.*crlf.txt" owed
remedy=$(remedy_of gates-green)
case $remedy in *".gitattributes"*) ;; *) fail "remedy: $remedy" ;; esac

# Kept CRLF by the attributes: a checkout writes what the disk holds.
printf 'tests/fixtures/*.txt eol=crlf\n' >> .gitattributes
commit_all "keep the CRLF fixture CRLF"
git push -q origin main
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git status is not clean"
rm -rf "$d/c"; git clone -q "$case_root/origin.git" "$d/c"
od -c "$d/c/tests/fixtures/crlf.txt" | grep -q '\\r' || fail "setup: a clone of the commit lacks CRLF"
expect_run 0 md gate run unit
expect_not_contains "is not the blob git records"
expect_answer gates-green pass "unit passed"
