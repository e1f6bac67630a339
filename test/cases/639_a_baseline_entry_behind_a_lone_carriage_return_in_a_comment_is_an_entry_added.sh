#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# no-new-debt read a baseline's lines as ended at `\n` alone, so
# `# reviewed\rsrc/new.rs: unwrap` was one line, a `#` comment, no entry,
# while the readers a list is read by end a line at a lone `\r` too
# (Python's text files, Java's readLine) and at the other breaks Python's
# `str.splitlines` knows (a form feed, U+2028, ...): there the entry
# `src/new.rs: unwrap` is allowed. A line now ends wherever such a reader
# ends one, so the entry behind the comment is an entry added; CRLF, LF
# and CR endings read alike, and a comment on a line of its own hides
# nothing.

mkdir -p .ai/repo src tests
exempt_forge
printf '# lint allowances\nsrc/old.rs: unwrap\n' > .ai/repo/lint-baseline.txt
echo "fn a() {}" > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "fix a"

echo "fn a() { fixed }" > src/lib.rs
echo "#[test] fn t(){}" > tests/a.rs
printf '# reviewed\rsrc/new.rs: unwrap\n' >> .ai/repo/lint-baseline.txt
commit_all "fix a"
git push -q origin main
# As a Python tool reads its allowlist.
[ "$(python3 -c "print(sum(1 for l in open('.ai/repo/lint-baseline.txt') if l.strip() and not l.startswith('#')))")" = 2 ] ||
  fail "python does not read two entries"
expect_open no-new-debt 'added `src/new.rs: unwrap`' refused
expect_run 10 md check

# Behind a form feed, or U+2028, the same.
printf '# lint allowances\nsrc/old.rs: unwrap\n# reviewed\fsrc/new.rs: unwrap\n' > .ai/repo/lint-baseline.txt
commit_all "the comment's break"
git push -q origin main
expect_open no-new-debt 'added `src/new.rs: unwrap`' refused
printf '# lint allowances\nsrc/old.rs: unwrap\n# reviewed\xe2\x80\xa8src/new.rs: unwrap\n' > .ai/repo/lint-baseline.txt
commit_all "the comment's break"
git push -q origin main
expect_open no-new-debt 'added `src/new.rs: unwrap`' refused

# The honest way: the entry out, the note a comment of its own; the
# baseline saved with CR endings adds nothing.
printf '# lint allowances\rsrc/old.rs: unwrap\r# reviewed\r' > .ai/repo/lint-baseline.txt
commit_all "the entry out"
git push -q origin main
expect_answer no-new-debt pass "No entry was added"
