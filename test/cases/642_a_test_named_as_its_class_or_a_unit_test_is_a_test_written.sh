#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh" || exit 2
# The JVM's, .NET's, PHPUnit's and XCTest's projects name a test file
# after its class (`ParserTest.java`, `ParserTests.swift`, Spock's
# `ParserSpec.groovy`), GoogleTest's in Chromium's tree `foo_unittest.cc`,
# LLVM keeps its unit tests in `unittests/`. The task fixes the code and
# writes the test beside it, as the project does: none of those names was a
# test path, so regression-tested was owed ("None of the 2 paths changed
# since the start is a test path") and the way out the evidence offers,
# `[tests] paths`, is a loosening not in force during the task: owed for
# good. Those names are test paths now; a name that only ends in the
# letters (`Latest.java`, `Contest.kt`) or is only the word is none.

java_parser_project
mkdir -p base/strings llvm/lib llvm/unittests/ADT
echo 'int f() { return 1; }' > base/strings/string_util.cc
echo 'int g() { return 1; }' > llvm/lib/StringRef.cpp
commit_all "the C++ sources"
git push -q origin main
expect_run 0 md start "raise the limit"
echo 'class Parser { int limit() { return 2; } }' > src/main/java/org/x/Parser.java
printf 'class ParserTest {\n  @Test void limit() { assertEquals(2, new Parser().limit()); }\n}\n' \
  > src/main/java/org/x/ParserTest.java
expect_run 0 md gate run unit
commit_all "parser: limit 2"
git push -q origin main
expect_answer regression-tested pass "src/main/java/org/x/ParserTest.java"
expect_run 0 md check
expect_done_line "done: complete (16 pass, 3 exempt)"
expect_run 0 md finish --outcome completed

# GoogleTest's file beside the code, and LLVM's unittests/.
expect_run 0 md start "f and g return 2"
echo 'int f() { return 2; }' > base/strings/string_util.cc
echo 'TEST(StringUtil, F) { EXPECT_EQ(2, f()); }' > base/strings/string_util_unittest.cc
commit_all "f: 2"
expect_answer regression-tested pass "base/strings/string_util_unittest.cc"
git reset -q --hard HEAD~1
echo 'int g() { return 2; }' > llvm/lib/StringRef.cpp
echo 'TEST(StringRefTest, G) { EXPECT_EQ(2, g()); }' > llvm/unittests/ADT/StringRefTest.cpp
commit_all "g: 2"
expect_answer regression-tested pass "llvm/unittests/ADT/StringRefTest.cpp"

# Still no test: a file whose name only ends in the letters.
git reset -q --hard HEAD~1
echo 'class Parser { int limit() { return 3; } }' > src/main/java/org/x/Parser.java
echo 'class Latest {}' > src/main/java/org/x/Latest.java
echo 'class Contest {}' > src/main/java/org/x/Contest.java
commit_all "parser: limit 3"
expect_open regression-tested "None of the 3 paths changed since the start is a test path" owed
