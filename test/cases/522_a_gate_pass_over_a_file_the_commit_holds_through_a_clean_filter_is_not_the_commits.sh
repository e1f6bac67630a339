#!/usr/bin/env bash
# gates-green: the fix is on disk, but committed through a clean filter
# given to one `git add` (`git -c core.attributesFile=ATTRS -c
# filter.brk.clean="sed s/fixed/broken/" add`, 461's mechanism): the blob
# HEAD holds (and what was pushed) is the broken file, the index keeps the
# disk file's stat data, so `git status` is clean, and the gate passes over
# the disk. A gate's verdict vouches for the committed work only where what
# it ran over is what the commit holds: `gate run` reads each tracked input
# git reads clean from disk and hashes what it holds, so the verdict is not
# found over the index's content; gates-green is owed, naming the file and
# saying its content on disk is not the blob git records. Committed as it
# is on disk (`git add --renormalize`), the same run passes. A file git
# converts by its own attributes (`text eol=crlf`: CRLF on disk, LF in its
# blob) is its blob, and passes.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p .ai/repo src tests
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q fixed src/lib.rs && grep -q '^a' src/data.txt"
inputs = ["src/**"]
TOML
exempt_forge
echo "fn a() {}" > src/lib.rs
printf 'src/data.txt text eol=crlf\n' > .gitattributes
printf 'a\nb\n' > src/data.txt
commit_all "initial"
rm src/data.txt && git checkout -- src/data.txt
[ "$(od -c src/data.txt | head -1 | grep -c '\\r')" = 1 ] || fail "setup: data.txt is not CRLF on disk"
with_origin
expect_run 0 md start "fix a"

echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
git add tests
printf 'src/lib.rs filter=brk\n' > "$case_root/attrs"
touch -d "-30 seconds" src/lib.rs
git -c core.attributesFile="$case_root/attrs" \
    -c filter.brk.clean="sed s/fixed/broken/" add src/lib.rs
git commit -q -m "fix a"
git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: git status is not clean"
git show HEAD:src/lib.rs | grep -q fixed && fail "setup: HEAD holds the fix"
d=$(mktemp -d); git archive HEAD | tar -x -C "$d"
(cd "$d" && grep -q fixed src/lib.rs) && fail "setup: what HEAD holds passes the gate"

expect_run 0 md gate run unit
expect_contains "src/lib.rs is not the blob git records"
expect_open gates-green "other content than the blob git records.*src/lib.rs" owed
remedy=$(remedy_of gates-green)
case $remedy in *"git add --renormalize src/lib.rs"*) ;; *) fail "remedy: $remedy" ;; esac
expect_run 10 md check

# Committed as it is on disk: the run over the disk is the commit's.
git add --renormalize src/lib.rs
git commit -q -m "fix a, as on disk"
git push -q origin main
git show HEAD:src/lib.rs | grep -q fixed || fail "setup: the renormalized commit lacks the fix"
expect_answer gates-green pass "unit passed"
