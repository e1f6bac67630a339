#!/usr/bin/env bash
# regression-tested asks that the change add or edit a test. A line that
# only turns a test off counted as an edit of it: the fix beside
# `@unittest.skip("flaky")` over the test it breaks, `#[ignore]` over an
# inline Rust test, or `it(` made `it.skip(`, read `done: complete`. Such a
# line adds no test, in a test path or in a test item of another file.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src tests web
echo 'def add(a, b): return a + b' > src/calc.py
printf 'import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n' > tests/test_calc.py
printf 'pub fn a() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_works() {\n        super::a();\n    }\n}\n' > src/lib.rs
printf 'it("adds", () => {\n  expect(1 + 1).toBe(2);\n});\n' > web/calc.test.js
start_on_origin

echo 'def add(a, b): return a - b' > src/calc.py
printf 'import unittest\nclass T(unittest.TestCase):\n    @unittest.skip("flaky")\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n' > tests/test_calc.py
printf 'pub fn a() { }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    #[ignore]\n    fn a_works() {\n        super::a();\n    }\n}\n' > src/lib.rs
printf 'it.skip("adds", () => {\n  expect(1 + 1).toBe(2);\n});\n' > web/calc.test.js
commit_all "fix, with the tests turned off"
expect_open regression-tested "tests/test_calc.py .*a test turned off" owed
expect_also regression-tested "web/calc.test.js .*a test turned off" owed

# A test written: counted.
printf 'import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n    def test_sub(self):\n        self.assertEqual(2 - 1, 1)\n' > tests/test_calc.py
commit_all "a test"
expect_answer regression-tested pass "tests/test_calc.py"
