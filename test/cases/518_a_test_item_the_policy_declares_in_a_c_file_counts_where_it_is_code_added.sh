#!/usr/bin/env bash
# A project whose tests live inside its source files in a language
# majordomus does not read (antirez/sds: sds.c's sdsTest() under
# `#ifdef SDS_TEST_MAIN`, each check a `test_cond("...", expr)` line)
# declares them in its policy, `[tests] items = [{ paths = "sds.c", marker =
# "test_cond(" }]`: an added or edited line of a changed file the glob
# matches, holding the marker in its code, is an added or edited test item.
# The rule: the declaration is read from the policy in force (one added
# during the task is a loosening, named and not in force for it); the
# marker must be on a line the change added, in code (a marker in a `//`,
# `/* .. */` or `*` comment line, under `#if 0`, or on a line that only
# moved or was re-indented writes no test); an empty marker is a policy
# error, exit 2 at start and check. An honest fix with its inline
# regression test passes.
source "$(dirname "$0")/../lib.sh" || exit 2

declaration='[tests]
items = [{ paths = "sds.c", marker = "test_cond(" }]'

# A tiny sds: the function, and its tests in the same file.
sds_repo() {
  write_tiny_sds
  mkdir -p .ai/repo
  if [ "$1" = declared ]; then printf '%s\n' "$declaration" > .ai/repo/majordomus.toml; fi
  commit_all "sds with inline tests"
  md start "lower: cast to unsigned char (UB on high bytes)" > /dev/null
  sed -i 's/tolower(\*s)/tolower((unsigned char)*s)/' sds.c
}

# Adds the regression test as line $1 (with its char array) before `return 0;`.
add_test_line() {
  python3 - "$1" <<'PY'
import sys
src = open("sds.c").read()
add = '    char b[] = "A\\xe9";\n    lower(b);\n' + sys.argv[1] + '\n'
open("sds.c", "w").write(src.replace("    return 0;\n", add + "    return 0;\n", 1))
PY
}

for variant in declared undeclared in-a-comment in-a-block-comment compiled-out moved declared-during-the-task; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    case $variant in
      undeclared | declared-during-the-task) sds_repo none ;;
      *) sds_repo declared ;;
    esac
    real='    test_cond("lower keeps high bytes", strcmp(b, "a\xe9") == 0);'
    case $variant in
      declared | undeclared) add_test_line "$real" ;;
      in-a-comment) add_test_line '    // test_cond("lower keeps high bytes", strcmp(b, "a\xe9") == 0);' ;;
      in-a-block-comment) add_test_line '    /* covers the fix:
    test_cond("lower keeps high bytes", strcmp(b, "a\xe9") == 0);
    */' ;;
      compiled-out) add_test_line '#if 0
    test_cond("lower keeps high bytes", strcmp(b, "a\xe9") == 0);
#endif' ;;
      # The start's own test moved below the new lines and re-indented.
      moved) python3 - <<'PY'
src = open("sds.c").read()
t = '    test_cond("lower", strcmp(a, "abc") == 0);\n'
src = src.replace(t, "").replace("    return 0;\n", '    char b[] = "x";\n    lower(b);\n        ' + t.strip() + "\n    return 0;\n", 1)
open("sds.c", "w").write(src)
PY
        ;;
      declared-during-the-task)
        add_test_line "$real"
        printf '%s\n' "$declaration" > .ai/repo/majordomus.toml ;;
    esac
    commit_all "lower: cast to unsigned char, with a regression test"
    case $variant in
      declared)
        expect_answer regression-tested pass 'sds\.c \(`test_cond\(` on line 13, as \[tests\] items declares\)'
        expect_run 0 md explain regression-tested
        expect_contains 'declared by the policy'"'"'s [tests] items, in any language: a line holding `test_cond(` in sds.c' ;;
      declared-during-the-task)
        expect_open regression-tested "test" owed
        expect_run 10 md check
        expect_contains '[tests] items'
        expect_contains 'widened: also counts a line holding `test_cond(` in `sds.c` as a test item' ;;
      *) expect_open regression-tested "test" owed ;;
    esac
  ) || fail "variant $variant"
done

# A marker of no words would make every line a test: a policy error.
cd "$(mktemp -d "$case_root/v.XXXXXX")"
git init -q -b main .
mkdir -p .ai/repo
printf '[tests]\nitems = [{ paths = "sds.c", marker = "" }]\n' > .ai/repo/majordomus.toml
echo 'int x;' > sds.c
commit_all "an empty marker"
expect_run 2 md start "work"
expect_contains 'majordomus.toml:2:38: `tests.items.marker` is empty'
expect_run 2 md check
expect_contains '`tests.items.marker` is empty'
