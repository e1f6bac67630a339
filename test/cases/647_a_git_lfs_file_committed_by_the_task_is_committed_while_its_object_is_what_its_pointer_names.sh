#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# A task adds a file Git LFS tracks (`*.bin filter=lfs`) and commits it:
# the blob is LFS's pointer (the file's SHA-256 and size), the working
# tree holds the object, and `git status`, running LFS's clean filter, is
# clean. majordomus runs no filter driver: the entry git refreshed since
# the start was compared by its raw bytes, which are not the pointer, so
# `committed` stayed owed for good, its remedy `git commit -- big.bin`
# refused by git ("nothing to commit"); a touched LFS file read the same.
# Now a file under `filter=lfs` whose content is the object its pointer
# names is its blob, as git finds it; one edited since is still owed.

# LFS's clean filter as git-lfs writes its pointer (git-lfs need not be installed).
mkdir -p "$case_root/bin"
cat > "$case_root/bin/lfs-clean" <<'SH'
#!/bin/sh
t=$(mktemp); cat > "$t"
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %s\n' \
  "$(sha256sum "$t" | cut -d' ' -f1)" "$(wc -c < "$t" | tr -d ' ')"
rm -f "$t"
SH
chmod +x "$case_root/bin/lfs-clean"
git config filter.lfs.clean "$case_root/bin/lfs-clean"
git config filter.lfs.smudge cat
git config filter.lfs.required true

echo '*.bin filter=lfs diff=lfs merge=lfs -text' > .gitattributes
echo 'hello' > README
exempt_forge
commit_all "initial"
with_origin
expect_run 0 md start "add the data file"

head -c 4096 /dev/urandom > big.bin
git add big.bin
git commit -q -m "the data file"
git push -q origin main
git cat-file -p HEAD:big.bin | grep -q '^oid sha256:' || fail "setup: the blob is not an LFS pointer"
[ -z "$(git status --porcelain)" ] || fail "setup: git shows $(git status --porcelain)"
expect_answer committed pass "No tracked file changed since the start is uncommitted"

# Touched, a second later: git reads it through the filter, still clean.
sleep 1
touch big.bin
[ -z "$(git status --porcelain)" ] || fail "setup: git shows $(git status --porcelain)"
expect_answer committed pass "No tracked file changed since the start is uncommitted"

# Its object changed, the size kept: git shows it modified, and so does check.
head -c 4096 /dev/urandom > big.bin
[ "$(git status --porcelain)" = " M big.bin" ] || fail "setup: git shows $(git status --porcelain)"
expect_open committed "not committed: big.bin" owed
git commit -q -a -m "the data file, again"
git push -q origin main
expect_answer committed pass "No tracked file changed since the start is uncommitted"
