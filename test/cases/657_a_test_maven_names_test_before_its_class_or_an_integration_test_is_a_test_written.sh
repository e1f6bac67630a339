#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# Maven runs as tests, by its Surefire plugin's default, `Test*.java`,
# `*Test.java`, `*Tests.java` and `*TestCase.java`, and by Failsafe's the
# integration tests `*IT.java` and `*ITCase.java` (Hadoop's and many an
# Apache project's `TestParser.java`). The task fixes the code and writes
# its test as the project names them: 642 took `ParserTest.java`, but
# `TestParser.java` and `ParserIT.java` were no test path, so
# regression-tested was owed for good (`[tests] paths` is a loosening, not
# in force during the task). They are test paths now; a name where the
# letters are part of another word (`Testament.java`, `SPLIT.java`) is none.

# fix_with_test N CLASS: Parser's limit raised to N, and a test class
# CLASS beside it asserting it, committed.
fix_with_test() {
  echo "class Parser { int limit() { return $1; } }" > src/main/java/org/x/Parser.java
  printf 'class %s {\n  @Test void limit() { assertEquals(%s, new Parser().limit()); }\n}\n' "$2" "$1" \
    > "src/main/java/org/x/$2.java"
  commit_all "parser: limit $1"
}

java_parser_project
expect_run 0 md start "raise the limit"
fix_with_test 2 TestParser
expect_run 0 md gate run unit
git push -q origin main
expect_answer regression-tested pass "src/main/java/org/x/TestParser.java"
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
expect_run 0 md finish --outcome completed

# Failsafe's integration test, and Surefire's `*TestCase`.
expect_run 0 md start "raise it again"
fix_with_test 3 ParserIT
expect_answer regression-tested pass "src/main/java/org/x/ParserIT.java"
git reset -q --hard HEAD~1
fix_with_test 3 ParserTestCase
expect_answer regression-tested pass "src/main/java/org/x/ParserTestCase.java"

# Still no test: the letters inside another word.
git reset -q --hard HEAD~1
echo 'class Parser { int limit() { return 4; } }' > src/main/java/org/x/Parser.java
echo 'class Testament {}' > src/main/java/org/x/Testament.java
echo 'class SPLIT {}' > src/main/java/org/x/SPLIT.java
commit_all "parser: limit 4"
expect_open regression-tested "None of the 3 paths changed since the start is a test path" owed
