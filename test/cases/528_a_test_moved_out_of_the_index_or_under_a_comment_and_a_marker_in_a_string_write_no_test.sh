#!/usr/bin/env bash
# regression-tested, three false passes found by a probe of 524, 525 and
# 518, each closed as a rule:
# - What the change took out of a path is measured against what the change
#   holds there: tests/gen_cases.rs, tracked at the start though the
#   start's .gitignore names it, `git rm --cached` (left on disk, ignored,
#   git status clean) and its test carried, re-indented, into a new
#   tests/cases.rs, read as a test written, as the disk still held every
#   line. A path the index no longer holds gave up all its lines, whatever
#   the disk holds.
# - Inside a test item lines are compared with their trailing comments cut
#   (510), and so are they drawn as moved: 525's move with the fn line
#   `fn old() { // moved from tests/old.rs` counted that line as written.
# - A declared marker (`[tests] items`) counts only in code: one inside a
#   C string literal of library code (`"add a check with test_cond(desc,
#   expr)"`) was read as a test item added. String and character literals
#   are masked as comments are, and a comment opener inside one opens none.
# The honest flows beside each (a test written, a marker in code after a
# string holding `/*`) still pass.
source "$(dirname "$0")/../lib.sh" || exit 2

# fresh NAME: a repository NAME of its own with an origin NAME.git.
fresh() {
  cd "$case_root"
  git init -q -b main "$1" && cd "$1"
  git init -q --bare -b main "$case_root/$1.git"
}

# fresh NAME, its start committed and pushed, a task "fix a" started.
pushed_and_started() {
  echo base > README
  exempt_forge
  commit_all "initial"
  git remote add origin "$case_root/$1.git"
  git push -q -u origin main
  git remote set-head origin main
  expect_run 0 md start "a feature"
  expect_run 0 md todo add "fix a"
  expect_run 0 md todo done 1
}

# (a) A test untracked behind an ignore rule, carried into a new test path.
fresh untracked
mkdir -p src tests
printf 'tests/gen_*.rs\n' > .gitignore
printf 'pub fn a() -> u8 { 1 }\n' > src/a.rs
printf '#[test]\nfn old() {\n    assert_eq!(1, 1);\n}\n' > tests/gen_cases.rs
git add -f tests/gen_cases.rs
pushed_and_started untracked
echo 'pub fn b() {}' >> src/a.rs
git rm -q --cached tests/gen_cases.rs
sed 's/^    /\t/' tests/gen_cases.rs > tests/cases.rs
commit_all "fix a, the test moved"
git push -q origin main
[ -z "$(git status --porcelain -uall)" ] || fail "setup: git status is not clean"
[ -f tests/gen_cases.rs ] || fail "setup: the old test left the disk"
expect_open regression-tested "tests/cases.rs" owed
expect_run 10 md check
# A test written beside it counts.
printf '\n#[test]\nfn b_runs() {\n    demo::b();\n}\n' >> tests/cases.rs
commit_all "a test for the fix"
git push -q origin main
expect_answer regression-tested pass "tests/cases.rs"

# (b) A test moved into a test module, its fn line under a trailing comment.
fresh comment
mkdir -p src tests
printf 'pub fn a() -> u8 { 1 }\n' > src/a.rs
printf 'pub fn one() -> u8 { 1 }\n' > src/lib.rs
printf 'use demo::a::a;\n\n#[test]\nfn old() {\n    assert_eq!(a(), 1); // one\n}\n' > tests/old.rs
pushed_and_started comment
git rm -q tests/old.rs
printf 'pub fn b() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn old() { // moved from tests/old.rs\n        assert_eq!(a(), 1);\n    }\n}\n' >> src/a.rs
commit_all "fix a, the test moved beside it"
git push -q origin main
expect_open regression-tested "a test moved, not written: src/a.rs" owed
# A line written in the moved test counts.
sed -i 's|^        assert_eq!(a(), 1);$|        assert_eq!(a(), 1);\n        b();|' src/a.rs
commit_all "the fix exercised"
git push -q origin main
expect_answer regression-tested pass "src/a.rs \(fn old"

# (c) A declared marker inside a C string literal of library code.
fresh literal
write_tiny_sds
mkdir -p .ai/repo
printf '[tests]\nitems = [{ paths = "sds.c", marker = "test_cond(" }]\n' > .ai/repo/majordomus.toml
pushed_and_started literal
sed -i 's/^void lower(char \*s) { for (; \*s; s++) \*s = tolower(\*s); }$/const char *sds_howto = "add a check with test_cond(desc, expr)";\nvoid lower(char *s) { for (; *s; s++) *s = tolower((unsigned char)*s); }/' sds.c
grep -q sds_howto sds.c || fail "setup: sed"
commit_all "lower: cast to unsigned char"
git push -q origin main
expect_open regression-tested "none of the 1 path changed since the start is a test path or holds an added or edited test item" owed
# A check written in code, after a string holding a comment opener, counts.
sed -i 's|^    return 0;$|    char b[] = "/* \\xC4 */"; lower(b); test_cond("lower keeps high bytes", b[3] == (char)0xC4);\n    return 0;|' sds.c
grep -q 'lower keeps high bytes' sds.c || fail "setup: sed"
commit_all "a check for the cast"
git push -q origin main
expect_answer regression-tested pass "test_cond\(. on line"
